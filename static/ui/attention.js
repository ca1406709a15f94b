// What catches a player's eye when something happens: pure parts (no DOM), used by dock.js
// and notify.js.

// Messages not yet seen: never negative (a list read again may hold fewer).
export function unreadCount(total, seen) {
  return Math.max(0, total - seen);
}
