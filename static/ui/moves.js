// The move list in tournament notation and the battle display, from the public move dicts
// the server sends ({ply, color, from, to, notation, battle: {attacker, defender, result}}).

import { COLOR_NAMES, RED, BLUE, pieceElement, rankLabel, rankTitle } from "./pieces.js";
import { moveLabel, moveNumber } from "./reduce.js";
import { gettext as _, interpolate as fmt } from "./i18n.js";
import { seatName } from "./words.js";

export const TERMINATIONS = {
  flag_captured: _("the flag was captured"),
  no_moves: _("no legal move left"),
  no_moves_both: _("neither side can move"),
  move_cap: _("the move limit was reached"),
  resignation: _("resignation"),
  agreed_draw: _("a draw was agreed"),
  time: _("on time"),
  forfeit: _("the other player left"),
  aborted: _("cancelled before it started"),
  abandoned: _("abandoned: nobody was there any more"),
};

export function battleOutcome(battle) {
  if (battle.result === "attacker") return _("attacker wins");
  if (battle.result === "defender") return _("defender wins");
  return _("both are removed");
}

export function battleText(move, numbering) {
  const b = move.battle;
  const attacker = COLOR_NAMES[move.color];
  const defender = COLOR_NAMES[1 - move.color];
  return fmt(_("%(attacker)s %(a)s attacks %(defender)s %(d)s: %(outcome)s"), { attacker, a: rankTitle(b.attacker, numbering), defender, d: rankTitle(b.defender, numbering), outcome: battleOutcome(b) });
}

// The notation the move list shows: "E3-E4" for a move, "E3xE4" for an attack.
export function moveNotation(move) {
  return move.battle ? move.notation.replace("-", "x") : move.notation;
}

export function moveText(move, numbering) {
  const base = moveNotation(move);
  return move.battle ? `${base} (${battleText(move, numbering)})` : base;
}

// One line per move pair: "1. B4-B5  G7-G6". With {buttons: true} (the replay) every move
// is a button, so it can be reached with Tab and chosen with Enter.
export function renderMoveList(list, moves, numbering, { buttons = false } = {}) {
  list.replaceChildren();
  const sorted = [...moves].sort((a, b) => a.ply - b.ply);
  let row = null;
  for (const move of sorted) {
    if (move.color === RED || !row) {
      // The number is written out (not the list's marker, which cut "127." to "27.").
      row = document.createElement("li");
      row.value = moveNumber(move.ply);
      const number = document.createElement("span");
      number.className = "mv-no";
      number.textContent = moveLabel(move.ply);
      row.append(number, " ");
      list.append(row);
    }
    const span = document.createElement(buttons ? "button" : "span");
    if (buttons) span.type = "button";
    span.className = `mv ${move.color === RED ? "red" : "blue"}${move.battle ? " battle" : ""}`;
    span.dataset.ply = move.ply;
    span.textContent = moveNotation(move);
    span.title = moveText(move, numbering);
    if (buttons) span.setAttribute("aria-label", fmt(_("move %(number)s %(move)s"), { number: moveLabel(move.ply), move: moveText(move, numbering) }));
    if (move.battle) {
      const detail = document.createElement("small");
      detail.textContent = ` ${rankLabel(move.battle.attacker, numbering)}×${rankLabel(move.battle.defender, numbering)}`;
      span.append(detail);
    }
    row.append(span, " ");
  }
  list.scrollTop = list.scrollHeight;
}

// Both pieces of a battle side by side and the result.
export function renderBattle(container, move, numbering) {
  container.replaceChildren();
  if (!move || !move.battle) {
    container.hidden = true;
    return;
  }
  container.hidden = false;
  const b = move.battle;
  const attacker = { color: move.color, rank: b.attacker };
  const defender = { color: move.color === RED ? BLUE : RED, rank: b.defender };
  const side = (piece, role, won) => {
    const fig = document.createElement("figure");
    fig.className = `fighter ${won ? "won" : "lost"}`;
    fig.append(pieceElement(piece, numbering));
    const cap = document.createElement("figcaption");
    cap.textContent = `${role}: ${COLOR_NAMES[piece.color]} ${rankTitle(piece.rank, numbering)}`;
    fig.append(cap);
    return fig;
  };
  const vs = document.createElement("span");
  vs.className = "vs";
  vs.textContent = _("vs");
  const result = document.createElement("p");
  result.className = "battle-result";
  result.textContent = fmt(_("Battle on %(square)s: %(outcome)s."), { square: move.notation.split("-")[1], outcome: battleOutcome(b) });
  container.append(
    side(attacker, "attacker", b.result === "attacker"),
    vs,
    side(defender, "defender", b.result === "defender"),
    result,
  );
}

export function renderCaptured(container, captured, numbering) {
  container.replaceChildren();
  [RED, BLUE].forEach((color) => {
    const row = document.createElement("div");
    row.className = "captured-row";
    row.dataset.color = color;
    const title = document.createElement("span");
    title.className = "captured-title";
    const ranks = captured?.[color] || [];
    title.textContent = fmt(_("%(color)s lost %(count)s:"), { color: COLOR_NAMES[color], count: ranks.length });
    row.append(title);
    [...ranks].sort((a, b) => b - a).forEach((rank) => {
      const el = pieceElement({ color, rank }, numbering);
      el.title = rankTitle(rank, numbering);
      el.classList.add("small");
      row.append(el);
    });
    container.append(row);
  });
}

// Endings told by what the loser did.
const LOSER_DID = {
  flag_captured: (loser) => fmt(_("%(loser)s's flag was captured"), { loser }),
  resignation: (loser) => fmt(_("%(loser)s resigned"), { loser }),
  time: (loser) => fmt(_("%(loser)s ran out of time"), { loser }),
  forfeit: (loser) => fmt(_("%(loser)s left the game"), { loser }),
};

export function resultText(result, seats) {
  if (!result) return "";
  if (result.termination === "aborted") return _("This game was cancelled before it started.");
  if (result.termination === "abandoned") return _("This game was abandoned: nobody was there any more. No result.");
  if (result.winner == null) return fmt(_("Draw: %(why)s."), { why: TERMINATIONS[result.termination] || result.termination });
  const loserDid = LOSER_DID[result.termination];
  const why = loserDid ? loserDid(COLOR_NAMES[1 - result.winner]) : TERMINATIONS[result.termination] || result.termination;
  const name = seatName(seats?.[result.winner]);
  return fmt(_("%(winner)s wins: %(why)s."), { winner: `${COLOR_NAMES[result.winner]}${name ? ` (${name})` : ""}`, why });
}
