// The game page's wiring: the socket's frames go through the pure reducer (reduce.js),
// input on the board and the tray through the pure input functions (input.js), and every
// change ends in one redraw from the state (play.js, match.js). No rule lives here: legal
// destinations come from view.legal_moves, the tray from view.remaining, results from the
// server (docs/protocol.md).

import { Board } from "./board.js";
import { OBSERVER, RED, getNumbering, pieceInfo, rankTitle } from "./pieces.js";
import { ReconnectingSocket } from "./socket.js";
import { Tray } from "./tray.js";
import { expire, initialState, notify, reduce, withChatHistory } from "./reduce.js";
import * as input from "./input.js";
import { renderTimers } from "./timers.js";
import { bindMatch, loadChat as fetchChat, renderMatch } from "./match.js";
import { renderPlay, renderSpectators } from "./play.js";
import { bindControls } from "./controls.js";
import { keepFocus } from "./focus.js";
import "./dock.js";
import { attend } from "./notify.js";
import { gettext as _, interpolate as fmt } from "./i18n.js";

const root = document.getElementById("game");
const $ = (id) => document.getElementById(id);

// What the server said (role, game, view, clock, moves, chat, notices...: reduce.js) and
// what this page is doing (selection, tray, numbering, the setup note, a resign to confirm).
const state = initialState({
  gameId: root.dataset.gameId,
  role: Number(root.dataset.role),
  isAccount: root.dataset.account === "1",
  game: JSON.parse($("game-meta").textContent),
  variantInfo: null,
  selected: null, // a square
  trayRank: null, // a rank chosen in the tray
  numbering: getNumbering(),
  setupNote: "",
  confirmResign: false,
  claiming: false,
  gameWall: 0, // when state.game arrived, by the wall clock (for the time a claim is possible)
});

const board = new Board($("board"), {
  label: _("Stratego board"),
  onSquare: (sq) => act(input.squareInput(state, sq)),
  onDrop: (payload, sq) => act(input.dropInput(state, payload, sq)),
  dragPayload: (sq) => input.dragPayload(state, sq),
  onDragStart: (sq) => act(input.dragStartInput(state, sq)),
  onEscape: () => act(input.escapeInput()),
  onDelete: (sq) => act(input.removeInput(state, sq)),
});

const tray = new Tray($("tray"), {
  onPick: (rank) => act(input.trayPickInput(state, rank)),
  onDropPiece: (sq) => act(input.removeInput(state, sq)),
});

const socket = new ReconnectingSocket(root.dataset.wsPath, {
  versioned: true,
  onFrame: (frame) => onFrame(frame),
  onStatus: (status) => update({ connection: status }),
});

// ------------------------------------------------------------------ state changes

function update(patch) {
  Object.assign(state, patch);
  render();
}

// An input's Action (input.js): its state patch, its messages (several are paced, to stay
// under the server's flood limit), its error as a notice.
function act({ patch, send, error }) {
  Object.assign(state, patch);
  if (send.length > 1) socket.sendPaced(send);
  else if (send.length) socket.send(send[0]);
  if (error) Object.assign(state, notify(state, error, "error", performance.now()));
  render();
}

// A moderator's action on this player (docs/protocol.md, `moderation`): said in words where
// the chat is, and a mute or a ban closes the chat's form.
// A moderator's action in the reader's words (the frame's `message` is in the site's language).
function moderationText(frame) {
  if (frame.reason == null) return frame.message;
  const until = frame.until
    ? fmt(_("until %(when)s"), { when: new Date(frame.until).toLocaleString() })
    : _("until a moderator lifts it");
  const values = { reason: frame.reason, until };
  const words = {
    warn: _("A moderator warns you: %(reason)s"),
    mute: _("You are muted in chat %(until)s. Reason: %(reason)s"),
    site_ban: _("You are banned from this site %(until)s. Reason: %(reason)s"),
    rated_ban: _("You are banned from rated play. Reason: %(reason)s"),
    lift: _("A moderator lifted your mutes and bans."),
  }[frame.action];
  return words ? fmt(words, values) : frame.message;
}

function showModeration(frame) {
  const box = $("moderation-notice");
  if (!box) return;
  box.textContent = moderationText(frame);
  box.hidden = false;
  box.className = `moderation-notice ${frame.action}`;
  const input = $("chat-input");
  const button = document.querySelector("#chat-form button[type=submit]");
  if (!input || !button) return;
  const silenced = frame.action === "mute" || frame.action === "site_ban";
  if (silenced || frame.action === "lift") input.disabled = button.disabled = silenced;
  input.placeholder = input.disabled ? _("You cannot chat now") : _("Say something");
}

// Every frame goes through the reducer; what it cannot do (fetch, navigate) follows here.
function onFrame(frame) {
  if (frame.type === "event" && frame.event?.kind === "seated") $("join-form")?.remove();
  const first = !state.view;
  const before = { role: state.role, game: state.game, view: state.view, rematch: state.rematch };
  Object.assign(state, reduce(state, frame, performance.now()));
  attend(before, state);
  if (frame.type === "spectators") return renderSpectators(state);
  if (frame.type === "moderation") return showModeration(frame);
  if (frame.type === "error" && (frame.code === "muted" || frame.code === "banned")) {
    showModeration({ action: frame.code === "muted" ? "mute" : "site_ban", message: frame.message });
  }
  if (frame.type === "error") {
    if (frame.request === "claim_victory") state.claiming = false;
    // The action may or may not have happened: ask for what we missed.
    if (frame.code === "server_error") socket.send({ type: "sync", version: socket.version ?? -1 });
    return render();
  }
  if (frame.game) Object.assign(state, { claiming: false, gameWall: Date.now() }); // (claim time of day)
  if (frame.view) {
    if (frame.view.ply > state.moves.size || first) loadMoves();
    state.trayRank = input.trayAfterView(state);
  }
  // A player's page goes to the rematch by itself; an observer gets its link (match.js).
  if (frame.event?.kind === "rematch" && input.isPlayer(state) && frame.event.game) {
    setTimeout(() => location.assign(`/games/${frame.event.game}/`), 600);
  }
  // A fresh state may follow a long absence (more events than a catch-up holds); at the end
  // the spectators' chat opens to the players: either way, the chat is read again.
  if (frame.type === "state" || frame.event?.kind === "game_over") loadChat();
  render();
}

// ------------------------------------------------------------------ what the socket does not bring

async function loadChat() {
  try {
    const messages = await fetchChat(state.gameId);
    if (messages) Object.assign(state, withChatHistory(state, messages));
    render();
  } catch {
    /* the chat fills in from the events */
  }
}

async function loadMoves() {
  try {
    const response = await fetch(`/games/${state.gameId}/moves.json`, { credentials: "same-origin" });
    if (!response.ok) return;
    const body = await response.json();
    state.moves = new Map([...state.moves, ...body.moves.map((m) => [m.ply, m])]);
    const battles = body.moves.filter((m) => m.battle);
    if (battles.length && !state.battleMove) state.battleMove = battles[battles.length - 1];
    render();
  } catch {
    /* the list fills in from the events */
  }
}

async function loadVariantInfo() {
  const response = await fetch(`/games/variants/${state.game.variant}.json`);
  if (response.ok) update({ variantInfo: await response.json() });
}

// ------------------------------------------------------------------ drawing

const matchActions = { send: (message) => socket.send(message), state: () => state };

function render() {
  renderPlay(state, { root, board, tray });
  renderMatch(state, matchActions);
  keepFocus(board, tray);
}

// The clocks tick; notices and the board's battle go away by themselves.
setInterval(() => {
  renderTimers(state);
  const next = expire(state, performance.now());
  if (next !== state) update(next);
}, 200);

window.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape") act(input.escapeInput());
});

// A tap or a pointer on any piece (the other side's too) says what it is and what it does.
function sayPiece(ev) {
  const cell = ev.target.closest?.(".sq");
  const piece = cell && state.view?.board[Number(cell.dataset.square)];
  if (piece) $("piece-info").textContent = pieceInfo(piece, state.numbering);
}
$("board").addEventListener("click", sayPiece);
$("board").addEventListener("mouseover", sayPiece);

bindControls({
  state,
  send: (message) => socket.send(message),
  act,
  update,
  error: (text) => act({ patch: {}, send: [], error: text }),
});
bindMatch(matchActions);
loadVariantInfo();
render();

// What the server last sent, for the console and for the browser tests (read only).
window.strategoGame = { state, rankTitle, RED, OBSERVER };
