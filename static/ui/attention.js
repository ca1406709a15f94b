// What catches a player's eye when something happens: the pure parts (no DOM), used by
// dock.js and notify.js.

import { gettext as _ } from "./i18n.js";

// Messages not yet seen: never negative (a list read again may hold fewer).
export function unreadCount(total, seen) {
  return Math.max(0, total - seen);
}

// The words for each thing that asks for a player's attention (the title, a notification).
export const ALERT_TEXT = {
  joined: _("Your opponent has joined"),
  draw: _("A draw is offered"),
  rematch: _("A rematch is offered"),
  over: _("The game is over"),
  turn: _("Your move"),
};

const over = (s) => !!s.game && ["finished", "aborted"].includes(s.game.status);
const myTurn = (s) => !!s.view && s.view.phase === "playing" && s.view.turn === s.role;

// What happened between two states of a player's page that asks for their attention, in the
// order of ALERT_TEXT; nothing for a spectator or on the first state the page gets.
export function alertsBetween(before, after) {
  const role = after.role;
  if (!(role === 0 || role === 1) || !before.game || !after.game) return [];
  const other = 1 - role;
  const found = [];
  if (!before.game.seats?.[other] && after.game.seats?.[other]) found.push("joined");
  if (after.game.draw_offer === other && before.game.draw_offer !== other && !over(after)) found.push("draw");
  if (after.rematch?.offer === other && before.rematch?.offer !== other) found.push("rematch");
  if (over(after) && !over(before)) found.push("over");
  else if (myTurn(after) && before.view && !myTurn(before)) found.push("turn");
  return found;
}

// The tab's title while an alert waits to be seen: "● Your opponent has joined · Stratego".
export function markedTitle(alert, title) {
  return alert ? `● ${ALERT_TEXT[alert]} · ${title}` : title;
}
