// The status line's words, from the state alone (no DOM): what the page offers (its join
// buttons, the nickname form) comes in `page`. Tested under node (tests/js/status.test.mjs).

import { squareName } from "./board.js";
import { COLOR_NAMES } from "./pieces.js";
import { resultText } from "./moves.js";
import { countRemaining } from "./tray.js";
import { gettext as _, interpolate as fmt } from "./i18n.js";

const isPlayer = (state) => state.role === 0 || state.role === 1;

export function statusText(state, page = { join: [], nicknameForm: false }) {
  const g = state.game;
  const v = state.view;
  if (state.connection === "gone") return _("This game does not exist.");
  if (!v) return _("Connecting…");
  if (state.connection === "closed") return _("Connection lost: reconnecting…");
  if (g.status === "finished" || g.status === "aborted") return resultText(g.result, g.seats) || _("The game is over.");
  const opp = isPlayer(state) ? 1 - state.role : null;
  if (!isPlayer(state)) {
    if (g.status === "waiting") {
      if (page.join.length) return fmt(_("A seat is free: press %(buttons)s to join."), { buttons: page.join.join(_(" or ")) });
      if (page.nicknameForm) return _("A seat is free: choose a nickname to join the game.");
      return _("Watching: waiting for a second player.");
    }
    if (v.phase === "setup") return _("Watching: the players are placing their pieces.");
    return fmt(_("Watching: %(color)s to move."), { color: COLOR_NAMES[v.turn] });
  }
  if (v.phase === "setup") {
    const left = countRemaining(v.remaining);
    const waiting = g.status === "waiting" ? ` ${_("Waiting for an opponent to join: share the link.")}` : "";
    if (!v.ready[state.role]) {
      if (left > 0) {
        return fmt(_("Place your pieces: %(left)s left. Choose a piece in the tray, then a square (or use Random setup)."), { left }) + waiting;
      }
      return _("Your setup is complete: press READY to start.") + waiting;
    }
    if (g.status === "waiting") return _("You are ready. Waiting for an opponent to join.");
    return v.ready[opp] ? _("Starting…") : _("You are ready. The opponent is placing their pieces.");
  }
  if (v.phase === "playing") {
    if (v.turn === state.role) {
      return state.selected != null
        ? fmt(_("Your move: choose a highlighted square for the piece on %(square)s."), { square: squareName(state.selected, v.width) })
        : _("Your move: choose one of your pieces.");
    }
    return fmt(_("The opponent (%(color)s) is thinking: wait for their move."), { color: COLOR_NAMES[opp] });
  }
  return "";
}

