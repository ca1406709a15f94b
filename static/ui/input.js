// What a click, a drop, a drag or a key on the board or the tray means, from the state alone
// (no DOM, no socket): each input function returns an Action
//   {patch: fields of the page's state to change, send: [messages], error: text or null}
// and game.js applies it. Which squares are selectable, targets or the setup area is read
// from the server's view (view.legal_moves, view.remaining) and the variant's
// setup squares: no rule lives here. Tested under node (tests/js/input.test.mjs).

import { gettext as _ } from "./i18n.js";

export const isPlayer = (state) => state.role === 0 || state.role === 1;
export const myColor = (state) => (isPlayer(state) ? state.role : null);
export const isActive = (state) => !!state.game && !["finished", "aborted"].includes(state.game.status);

export function canSetUp(state) {
  const v = state.view;
  return isPlayer(state) && v?.phase === "setup" && isActive(state) && !v.ready[state.role];
}

export function myTurn(state) {
  const v = state.view;
  return isPlayer(state) && v?.phase === "playing" && isActive(state) && v.turn === state.role;
}

// The squares this player may place on (empty until the variant's description arrived).
export function setupSquares(state) {
  if (!state.variantInfo || myColor(state) == null) return new Set();
  return new Set(state.variantInfo.setup_squares[myColor(state)]);
}

export function legalTargets(state, from) {
  const out = new Set();
  if (!myTurn(state) || from == null) return out;
  for (const [a, b] of state.view.legal_moves) if (a === from) out.add(b);
  return out;
}

export function movableSquares(state) {
  return new Set(myTurn(state) ? state.view.legal_moves.map(([a]) => a) : []);
}

export function ownPieceAt(state, sq) {
  const piece = state.view?.board[sq];
  return piece && piece.color === myColor(state) ? piece : null;
}

// The squares whose piece may be dragged: own pieces in the setup, movable ones in play.
export function draggableSquares(state) {
  if (!canSetUp(state)) return movableSquares(state);
  const out = new Set();
  state.view.board.forEach((piece, sq) => piece && piece.color === myColor(state) && out.add(sq));
  return out;
}

// The marks the board draws for this page: selection, legal destinations, the setup area.
export function boardMarks(state) {
  const setup = canSetUp(state);
  return {
    selected: state.selected,
    targets: setup ? new Set() : legalTargets(state, state.selected),
    setupArea: setup ? setupSquares(state) : new Set(),
    draggable: draggableSquares(state),
  };
}

// The tray choice after a new view: none outside the setup; kept while pieces of it are left
// (several Scouts in a row), then none: a piece is never chosen for the player, so a stray tap
// after the last Marshal places nothing.
export function trayAfterView(state) {
  if (state.view?.phase !== "setup") return null;
  const rank = state.trayRank;
  return rank != null && state.view.remaining?.[String(rank)] > 0 ? rank : null;
}

// The game's own army size (a mini game may have drawn one), else the variant's; -1 unknown.
export function totalArmy(state) {
  const army = state.view?.army || state.variantInfo?.army;
  return army ? Object.values(army).reduce((a, b) => a + b, 0) : -1;
}

const action = (patch = {}, send = [], error = null) => ({ patch, send, error });
const NOTHING = action();

// ------------------------------------------------------------------ the inputs

export function squareInput(state, sq) {
  if (!state.view) return NOTHING;
  if (canSetUp(state)) return setupSquareInput(state, sq);
  if (myTurn(state)) return playSquareInput(state, sq);
  return NOTHING;
}

// In the setup: a piece on the board is chosen, then moved to an empty square of the area
// or swapped with another; with a piece chosen in the tray, an empty square receives it.
function setupSquareInput(state, sq) {
  const own = ownPieceAt(state, sq);
  if (state.selected != null) {
    const from = state.selected;
    if (from !== sq && own) return action({ selected: null }, swap(state, from, sq));
    if (from !== sq && setupSquares(state).has(sq)) return action({ selected: null }, relocate(state, from, sq));
    return action({ selected: null });
  }
  if (own) return action({ selected: sq, trayRank: null });
  if (state.trayRank != null && !state.view.board[sq]) {
    return action({}, [{ type: "place", square: sq, rank: state.trayRank }]);
  }
  if (state.trayRank == null && setupSquares(state).has(sq)) {
    return action({}, [], _("Choose a piece in the tray first."));
  }
  return NOTHING;
}

// In play: a movable piece is chosen (chosen again: let go), a legal destination moves it.
function playSquareInput(state, sq) {
  const from = state.selected;
  if (from != null && legalTargets(state, from).has(sq)) {
    return action({ selected: null }, [{ type: "move", from, to: sq }]);
  }
  return action({ selected: movableSquares(state).has(sq) && from !== sq ? sq : null });
}

function relocate(state, from, to) {
  const rank = ownPieceAt(state, from).rank;
  return [{ type: "remove", square: from }, { type: "place", square: to, rank }];
}

function swap(state, a, b) {
  const ra = ownPieceAt(state, a).rank;
  const rb = ownPieceAt(state, b).rank;
  return [
    { type: "remove", square: a },
    { type: "remove", square: b },
    { type: "place", square: a, rank: rb },
    { type: "place", square: b, rank: ra },
  ];
}

// Delete / Backspace on a square, "Back to tray", or a board piece dropped on the tray.
export function removeInput(state, sq) {
  if (sq == null || !canSetUp(state) || !ownPieceAt(state, sq)) return NOTHING;
  return action({ selected: null }, [{ type: "remove", square: sq }]);
}

export function trayPickInput(state, rank) {
  return action({ trayRank: rank, selected: null });
}

export function escapeInput() {
  return action({ selected: null, trayRank: null });
}

// What a drag from `sq` carries ("sq:<n>"), or null when that square cannot be dragged.
export function dragPayload(state, sq) {
  return draggableSquares(state).has(sq) ? `sq:${sq}` : null;
}

// A drag in play selects its piece (its destinations show while it is carried).
export function dragStartInput(state, sq) {
  return state.view?.phase === "playing" ? action({ selected: sq }) : NOTHING;
}

// A drop on `sq`: "rank:<r>" from the tray, or "sq:<n>" from the board.
export function dropInput(state, payload, sq) {
  if (payload.startsWith("rank:")) {
    if (!canSetUp(state) || state.view.board[sq]) return NOTHING;
    return action({}, [{ type: "place", square: sq, rank: Number(payload.slice(5)) }]);
  }
  if (!payload.startsWith("sq:")) return NOTHING;
  const from = Number(payload.slice(3));
  if (canSetUp(state) && ownPieceAt(state, from) && from !== sq) {
    return action({ selected: null }, ownPieceAt(state, sq) ? swap(state, from, sq) : relocate(state, from, sq));
  }
  if (myTurn(state) && legalTargets(state, from).has(sq)) {
    return action({ selected: null }, [{ type: "move", from, to: sq }]);
  }
  return NOTHING;
}
