// Keyboard focus across redraws: a redraw may disable or hide the control a keyboard user
// is on (READY once pressed, Random setup once the army is placed, the setup panel when the
// battle starts); focus then goes to the next sensible control, never back to the page.

const $ = (id) => document.getElementById(id);

let keyboardUser = false;
let lastFocused = null;
document.addEventListener("keydown", () => (keyboardUser = true), true);
document.addEventListener("pointerdown", () => (keyboardUser = false), true);
document.addEventListener("focusin", (ev) => (lastFocused = ev.target));

function usable(el) {
  return el && el.isConnected && !el.disabled && el.getClientRects().length > 0;
}

// After every redraw: READY if the setup panel is open, else the tray's piece, else the board.
export function keepFocus(board, tray) {
  const el = lastFocused;
  if (!keyboardUser || !el) return;
  const now = document.activeElement;
  const lost = !now || now === document.body || (now === el && !usable(el));
  if (!lost || usable(el)) return;
  const panelOpen = !$("setup-panel").hidden;
  if (panelOpen && usable($("btn-ready"))) $("btn-ready").focus();
  else if (panelOpen && $("tray").contains(el) && usable(tray.focusTarget())) tray.focusTarget().focus();
  else board.focus();
}
