// The status line's words, from the state alone (no DOM): what the page offers (its join
// buttons, the nickname form) comes in `page`. Tested under node (tests/js/status.test.mjs).

import { squareName } from "./board.js";
import { COLOR_NAMES } from "./pieces.js";
import { resultText } from "./moves.js";
import { countRemaining } from "./tray.js";

const isPlayer = (state) => state.role === 0 || state.role === 1;

export function statusText(state, page = { join: [], nicknameForm: false }) {
  const g = state.game;
  const v = state.view;
  if (state.connection === "gone") return "This game does not exist.";
  if (!v) return "Connecting…";
  if (state.connection === "closed") return "Connection lost: reconnecting…";
  if (g.status === "finished" || g.status === "aborted") return resultText(g.result, g.seats) || "The game is over.";
  const opp = isPlayer(state) ? 1 - state.role : null;
  if (!isPlayer(state)) {
    if (g.status === "waiting") {
      if (page.join.length) return `A seat is free: press ${page.join.join(" or ")} to join.`;
      if (page.nicknameForm) return "A seat is free: choose a nickname to join the game.";
      return "Watching: waiting for a second player.";
    }
    if (v.phase === "setup") return "Watching: the players are placing their pieces.";
    return `Watching: ${COLOR_NAMES[v.turn]} to move.`;
  }
  if (v.phase === "setup") {
    const left = countRemaining(v.remaining);
    const waiting = g.status === "waiting" ? " Waiting for an opponent to join: share the link." : "";
    if (!v.ready[state.role]) {
      if (left > 0) {
        return `Place your pieces: ${left} left. Choose a piece in the tray, then a square (or use Random setup).${waiting}`;
      }
      return `Your setup is complete: press READY to start.${waiting}`;
    }
    if (g.status === "waiting") return "You are ready. Waiting for an opponent to join.";
    return v.ready[opp] ? "Starting…" : "You are ready. The opponent is placing their pieces.";
  }
  if (v.phase === "playing") {
    if (v.turn === state.role) {
      return state.selected != null
        ? `Your move: choose a highlighted square for the piece on ${squareName(state.selected, v.width)}.`
        : "Your move: choose one of your pieces.";
    }
    return `The opponent (${COLOR_NAMES[opp]}) is thinking: wait for their move.`;
  }
  return "";
}

