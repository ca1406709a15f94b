// The game page's state, changed only here: reduce(state, frame, at) is pure (no DOM, no
// clock, no socket): it takes the state and one frame of the server (docs/protocol.md), and
// the time the frame arrived (ms, performance.now()), and returns the next state. The view
// modules draw from the state; tests/js/reduce.test.mjs runs it under node.

import { gettext as _ } from "./i18n.js";

export const NOTICE_MS = 6000; // a status notice goes away by itself after this long
export const BATTLE_MS = 2200; // how long a battle shows both pieces on the board

export function initialState(fields = {}) {
  return {
    role: 2,
    game: null,
    view: null,
    clock: null,
    clockAt: 0, // when the clock arrived (its times are as of then)
    gameAt: 0, // when game arrived (away[].claim_ms counts from then)
    moves: new Map(), // ply -> the public move
    battleMove: null, // the last move with a battle
    boardBattle: null, // {move, until}: a battle to show on the board until `until`
    spectators: null,
    chat: [], // {room, role, name, text, version}
    hiddenChat: 0, // spectators' messages the players may read once the game is over
    rematch: { offer: null, declined: null, game: null },
    notices: [], // {id, text, kind: "info" | "error", until}
    cues: [], // sounds to play: "move", "battle", "turn" (the page empties it)
    connection: "connecting",
    ...fields,
  };
}

export function reduce(state, frame, at = 0) {
  switch (frame.type) {
    case "state":
      return withFrame({ ...state, role: frame.role, moves: state.moves }, frame, at);
    case "event": {
      const next = onEvent({ ...state, role: frame.role ?? state.role }, frame.event, at, frame.version);
      return withFrame(next, frame, at);
    }
    case "spectators":
      return { ...state, spectators: frame.count };
    case "error":
      return notify(state, frame.message || frame.code, "error", at);
    default:
      return state;
  }
}

// The game, clock and view a frame may carry.
function withFrame(state, frame, at) {
  let next = state;
  if (frame.game) next = { ...next, game: frame.game, gameAt: at, spectators: frame.game.spectators };
  if ("clock" in frame) next = { ...next, clock: frame.clock, clockAt: at };
  if (frame.view) next = withView(next, frame.view, at);
  return next;
}

function withView(state, view, at) {
  const turnStarts = isMyTurn(state.role, view) && !isMyTurn(state.role, state.view) && state.view != null;
  let next = { ...state, view };
  const last = view.last_move;
  if (last) next = withMove(next, last, at, false);
  if (turnStarts) next = cue(next, "turn");
  return next;
}

function isMyTurn(role, view) {
  return !!view && view.phase === "playing" && (role === 0 || role === 1) && view.turn === role;
}

function withMove(state, move, at, live) {
  if (state.moves.get(move.ply) === move) return state;
  const moves = new Map(state.moves);
  moves.set(move.ply, move);
  let next = { ...state, moves };
  if (move.battle && (!state.battleMove || state.battleMove.ply <= move.ply)) {
    next.battleMove = move;
    if (live) next.boardBattle = { move, until: at + BATTLE_MS };
  }
  if (live) next = cue(next, move.battle ? "battle" : "move");
  return next;
}

function onEvent(state, event, at, version) {
  const mine = state.role === 0 || state.role === 1 ? state.role : null;
  switch (event.kind) {
    case "move":
      return withMove(state, event, at, true);
    case "draw_declined":
      return event.color === mine ? state : notify(state, _("Your draw offer was declined."), "info", at, mine != null);
    case "draw_offered":
      return event.color === mine ? state : notify(state, _("A draw is offered."), "info", at, mine != null);
    case "rematch_offered":
      return { ...state, rematch: { offer: event.color, declined: null, game: null } };
    case "rematch_declined":
      return notify(
        { ...state, rematch: { offer: null, declined: event.color, game: null } },
        event.color === mine ? _("You declined the rematch.") : _("The rematch was declined."),
        "info",
        at,
      );
    case "rematch":
      return { ...state, rematch: { offer: null, declined: null, game: event.game } };
    case "chat":
      if (event.hidden) return { ...state, hiddenChat: state.hiddenChat + 1 };
      return { ...state, chat: [...state.chat, { ...chatLine(event), version }] };
    default:
      return state;
  }
}

function chatLine(event) {
  return { room: event.room, role: event.role, name: event.name, guest: event.guest, text: event.text };
}

// The chat history (GET /games/<id>/chat.json) merged with what the events brought.
export function withChatHistory(state, messages) {
  const seen = new Set(state.chat.map((m) => m.version));
  const merged = [...state.chat, ...messages.filter((m) => !seen.has(m.version))];
  merged.sort((a, b) => a.version - b.version);
  return { ...state, chat: merged, hiddenChat: 0 };
}

let noticeIds = 0;

export function notify(state, text, kind = "info", at = 0, show = true) {
  if (!show || !text) return state;
  const notice = { id: ++noticeIds, text, kind, until: at + NOTICE_MS };
  return { ...state, notices: [...state.notices.filter((n) => n.text !== text), notice] };
}

// The notices and board battle still current at `at` (the page calls this on its timer).
export function expire(state, at) {
  const notices = state.notices.filter((n) => n.until > at);
  const boardBattle = state.boardBattle && state.boardBattle.until > at ? state.boardBattle : null;
  if (notices.length === state.notices.length && boardBattle === state.boardBattle) return state;
  return { ...state, notices, boardBattle };
}

function cue(state, sound) {
  return { ...state, cues: [...state.cues, sound] };
}

// ------------------------------------------------------------------ derived, for the views

// One numbering of moves everywhere (move list, replay, admin): full moves, Red's ply 2n-1
// and Blue's ply 2n are move n. "12." for Red's, "12…" for Blue's.
export function moveNumber(ply) {
  return Math.ceil(ply / 2);
}

export function moveLabel(ply) {
  return `${moveNumber(ply)}${ply % 2 === 1 ? "." : "…"}`;
}

// Per rank, for each side: how many it had, how many have fallen, how many are left. Only
// what every player knows: the army (public) and the fallen pieces (revealed in battle).
export function graveyard(view) {
  if (!view || !view.army) return [];
  const fallen = [countRanks(view.captured?.[0]), countRanks(view.captured?.[1])];
  return Object.entries(view.army)
    .map(([rank, total]) => {
      const r = Number(rank);
      const lost = [fallen[0][r] || 0, fallen[1][r] || 0];
      return { rank: r, total, fallen: lost, left: [total - lost[0], total - lost[1]] };
    })
    .sort((a, b) => rankOrder(b.rank) - rankOrder(a.rank));
}

function countRanks(ranks = []) {
  const counts = {};
  for (const rank of ranks) counts[rank] = (counts[rank] || 0) + 1;
  return counts;
}

// Marshal first, down to the spy, then bomb and flag (as the tray).
function rankOrder(rank) {
  return rank >= 11 ? -rank : rank;
}

export function isOver(state) {
  return !!state.game && ["finished", "aborted"].includes(state.game.status);
}

// Abort is open to a player until both sides have moved (docs/protocol.md, "The match").
// Before anyone joined the page offers "Cancel this game" instead: one button, not two.
export function canAbort(state) {
  const g = state.game;
  if (!g || isOver(state) || !(state.role === 0 || state.role === 1) || g.status === "waiting") return false;
  return g.status !== "playing" || (g.ply ?? 0) < 2;
}

// What the rematch controls show for this page: "offer", "sent", "answer", "open" or null.
export function rematchStage(state) {
  const mine = state.role === 0 || state.role === 1;
  const seats = state.game?.seats || [];
  if (!isOver(state) || !seats[0] || !seats[1]) return null;
  if (state.rematch.game) return "open";
  if (!mine) return null;
  if (state.rematch.offer === state.role) return "sent";
  if (state.rematch.offer === 1 - state.role) return "answer";
  return "offer";
}

// The tab title: "Your move" first when it is this player's turn.
export function tabTitle(state, base) {
  if (isMyTurn(state.role, state.view) && !isOver(state)) return `${_("Your move")} · ${base}`;
  if (state.view?.phase === "setup" && (state.role === 0 || state.role === 1) && !isOver(state)) {
    return `${_("Setup")} · ${base}`;
  }
  return base;
}
