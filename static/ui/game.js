// The game page: setup, battle, observer and end of game, all drawn from the server's
// frames (docs/protocol.md). No rule lives here: legal destinations come from
// view.legal_moves, the tray from view.remaining, battles and results from the server.

import { Board } from "./board.js";
import { OBSERVER, RED, getNumbering, rankTitle } from "./pieces.js";
import { renderBattle, renderMoveList, resultText, battleText } from "./moves.js";
import { ReconnectingSocket } from "./socket.js";
import { Tray, countRemaining } from "./tray.js";
import { SetupStore, layoutFromBoard, placementsOf } from "./setups.js";
import { copyLink, bindNumberingSwitch } from "./common.js";
import { expire, initialState, notify, reduce, withChatHistory } from "./reduce.js";
import { statusText as wordStatus } from "./status.js";
import { renderSeats as drawSeats, renderTimers as drawTimers } from "./timers.js";
import { bindMatch, loadChat as fetchChat, renderBoardBattle, renderMatch } from "./match.js";

const root = document.getElementById("game");
const $ = (id) => document.getElementById(id);

// What the server said (role, game, view, clock, moves, chat, notices...: static/ui/reduce.js)
// and what this page is doing (selection, tray, numbering).
const state = initialState({
  gameId: root.dataset.gameId,
  role: Number(root.dataset.role),
  isAccount: root.dataset.account === "1",
  game: JSON.parse($("game-meta").textContent),
  variantInfo: null,
  selected: null, // a square
  trayRank: null, // a rank chosen in the tray
  numbering: getNumbering(),
  pendingLoad: false,
  gameWall: 0, // when state.game arrived, by the wall clock (for the time a claim is possible)
  claiming: false,
});


const board = new Board($("board"), {
  label: "Stratego board",
  onSquare: (sq) => onSquare(sq),
  onDrop: (payload, sq) => onDrop(payload, sq),
  dragPayload: (sq) => dragPayload(sq),
  onDragStart: (sq) => {
    if (state.view?.phase === "playing") {
      state.selected = sq;
      render();
    }
  },
  onEscape: () => clearSelection(),
  onDelete: (sq) => removeFrom(sq),
});

const tray = new Tray($("tray"), {
  onPick: (rank) => {
    state.trayRank = rank;
    state.selected = null;
    render();
  },
  onDropPiece: (sq) => removeFrom(sq),
});

const socket = new ReconnectingSocket(root.dataset.wsPath, {
  versioned: true,
  onFrame: (frame) => onFrame(frame),
  onStatus: (status) => {
    state.connection = status;
    render();
  },
});

const store = new SetupStore(state.game.variant, state.isAccount);

// ------------------------------------------------------------------ frames

// Every frame goes through the pure reducer (static/ui/reduce.js); what it cannot do (fetch,
// the tray's DOM order) follows here.
function onFrame(frame) {
  if (frame.type === "event" && frame.event?.kind === "seated") refreshRoleSoon();
  const before = state.view;
  Object.assign(state, reduce(state, frame, performance.now()));
  if (frame.type === "spectators") return renderSpectators();
  if (frame.type === "error") {
    if (frame.request === "claim_victory") state.claiming = false;
    // The action may or may not have happened: ask for what we missed.
    if (frame.code === "server_error") socket.send({ type: "sync", version: socket.version ?? -1 });
    return render();
  }
  if (frame.game) state.gameWall = Date.now();
  if (frame.game) state.claiming = false;
  if (frame.view) afterView(frame.view, !before);
  if (frame.event?.kind === "rematch") openRematch(frame.event.game);
  // A fresh state may follow a long absence (more events than a catch-up holds); at the end
  // the spectators' chat opens to the players: either way, the chat is read again.
  if (frame.type === "state" || frame.event?.kind === "game_over") loadChat();
  render();
}

function afterView(view, first) {
  if (view.ply > state.moves.size || first) loadMoves();
  if (view.phase !== "setup") state.trayRank = null;
  if (state.trayRank != null && !(view.remaining?.[String(state.trayRank)] > 0)) state.trayRank = nextTrayRank();
}

const matchActions = { send: (message) => send(message), state: () => state };

// The chat this page may read now: on load, and at the end (the spectators' chat opens).
async function loadChat() {
  try {
    const messages = await fetchChat(state.gameId);
    if (messages) Object.assign(state, withChatHistory(state, messages));
    render();
  } catch {
    /* the chat fills in from the events */
  }
}

// The rematch began: a player's page goes to it; an observer gets the link (renderMatch).
function openRematch(gameId) {
  if (isPlayer() && gameId) setTimeout(() => location.assign(`/games/${gameId}/`), 600);
}

function refreshRoleSoon() {
  // A seat taken from this page: the socket's role follows with the next frame.
  $("join-form")?.remove();
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
  if (response.ok) state.variantInfo = await response.json();
  render();
}

// ------------------------------------------------------------------ helpers

const isPlayer = () => state.role === 0 || state.role === 1;
const myColor = () => (isPlayer() ? state.role : null);
const phase = () => state.view?.phase;
const active = () => state.game && !["finished", "aborted"].includes(state.game.status);

function canSetUp() {
  return isPlayer() && phase() === "setup" && active() && !state.view.ready[state.role];
}

function myTurn() {
  return isPlayer() && phase() === "playing" && active() && state.view.turn === state.role;
}

function setupSquares() {
  if (!state.variantInfo || myColor() == null) return new Set();
  return new Set(state.variantInfo.setup_squares[myColor()]);
}

function legalTargets(from) {
  const out = new Set();
  if (!myTurn() || from == null) return out;
  for (const [a, b] of state.view.legal_moves) if (a === from) out.add(b);
  return out;
}

function movableSquares() {
  return new Set(myTurn() ? state.view.legal_moves.map(([a]) => a) : []);
}

function ownPieceAt(sq) {
  const piece = state.view?.board[sq];
  return piece && piece.color === myColor() ? piece : null;
}

function nextTrayRank() {
  const remaining = state.view?.remaining;
  if (!remaining) return null;
  const order = [...$("tray").querySelectorAll(".tray-item")].map((el) => Number(el.dataset.rank));
  return order.find((rank) => remaining[String(rank)] > 0) ?? null;
}

function clearSelection() {
  state.selected = null;
  state.trayRank = null;
  render();
}

function send(message) {
  socket.send(message);
}

// ------------------------------------------------------------------ input

function onSquare(sq) {
  if (!state.view) return;
  if (canSetUp()) return onSetupSquare(sq);
  if (myTurn()) return onPlaySquare(sq);
}

function onSetupSquare(sq) {
  const own = ownPieceAt(sq);
  const area = setupSquares();
  if (state.selected != null) {
    const from = state.selected;
    state.selected = null;
    if (from !== sq && !own && area.has(sq)) {
      relocate(from, sq);
    } else if (from !== sq && own) {
      swap(from, sq);
    }
    render();
    return;
  }
  if (own) {
    state.selected = sq;
    state.trayRank = null;
    render();
    return;
  }
  if (state.trayRank != null && !state.view.board[sq]) {
    send({ type: "place", square: sq, rank: state.trayRank });
  } else if (state.trayRank == null && area.has(sq)) {
    showError("Choose a piece in the tray first.");
  }
}

function relocate(from, to) {
  const rank = ownPieceAt(from).rank;
  socket.sendPaced([{ type: "remove", square: from }, { type: "place", square: to, rank }]);
}

function swap(a, b) {
  const ra = ownPieceAt(a).rank;
  const rb = ownPieceAt(b).rank;
  socket.sendPaced([
    { type: "remove", square: a },
    { type: "remove", square: b },
    { type: "place", square: a, rank: rb },
    { type: "place", square: b, rank: ra },
  ]);
}

function removeFrom(sq) {
  if (!canSetUp() || !ownPieceAt(sq)) return;
  state.selected = null;
  send({ type: "remove", square: sq });
}

function onPlaySquare(sq) {
  if (state.selected != null && legalTargets(state.selected).has(sq)) {
    const from = state.selected;
    state.selected = null;
    send({ type: "move", from, to: sq });
    render();
    return;
  }
  state.selected = movableSquares().has(sq) && state.selected !== sq ? sq : null;
  render();
}

function dragPayload(sq) {
  if (canSetUp() && ownPieceAt(sq)) return `sq:${sq}`;
  if (myTurn() && movableSquares().has(sq)) return `sq:${sq}`;
  return null;
}

function onDrop(payload, sq) {
  if (payload.startsWith("rank:") && canSetUp()) {
    if (!state.view.board[sq]) send({ type: "place", square: sq, rank: Number(payload.slice(5)) });
    return;
  }
  if (!payload.startsWith("sq:")) return;
  const from = Number(payload.slice(3));
  if (canSetUp() && ownPieceAt(from) && from !== sq) {
    if (ownPieceAt(sq)) swap(from, sq);
    else relocate(from, sq);
  } else if (myTurn() && legalTargets(from).has(sq)) {
    state.selected = null;
    send({ type: "move", from, to: sq });
  }
}

// ------------------------------------------------------------------ controls

function bindControls() {
  $("btn-random").addEventListener("click", () => send({ type: "random_setup" }));
  $("btn-clear").addEventListener("click", () => send({ type: "clear_setup" }));
  $("btn-ready").addEventListener("click", () => send({ type: "ready" }));
  $("btn-remove").addEventListener("click", () => state.selected != null && removeFrom(state.selected));
  $("btn-save").addEventListener("click", saveSetup);
  $("btn-load").addEventListener("click", loadSetup);
  $("btn-resign").addEventListener("click", () => {
    $("resign-confirm").hidden = false;
    $("btn-resign-yes").focus();
  });
  $("btn-resign-no").addEventListener("click", () => {
    $("resign-confirm").hidden = true;
    $("btn-resign").focus();
  });
  $("btn-resign-yes").addEventListener("click", () => {
    $("resign-confirm").hidden = true;
    send({ type: "resign" });
  });
  $("btn-draw").addEventListener("click", () => send({ type: "offer_draw" }));
  $("btn-claim").addEventListener("click", () => {
    state.claiming = true;
    drawTimers(state);
    send({ type: "claim_victory" });
  });
  $("btn-draw-accept").addEventListener("click", () => send({ type: "accept_draw" }));
  $("btn-draw-decline").addEventListener("click", () => send({ type: "decline_draw" }));
  bindNumberingSwitch($("numbering"), (value) => {
    state.numbering = value;
    render();
  });
  $("btn-copy-link")?.addEventListener("click", (ev) => copyLink(ev.currentTarget));
  $("btn-share-copy")?.addEventListener("click", (ev) => copyLink(ev.currentTarget, $("share-url").value, $("share-url")));
}

async function refreshSavedSetups() {
  const select = $("saved-setups");
  const setups = await store.list();
  select.replaceChildren();
  for (const setup of setups) {
    const option = document.createElement("option");
    option.value = JSON.stringify(setup.layout);
    option.textContent = setup.name;
    select.append(option);
  }
  $("btn-load").disabled = setups.length === 0;
  select.disabled = setups.length === 0;
}

async function saveSetup() {
  const { width, height } = state.view;
  const layout = layoutFromBoard(state.view.board, myColor(), width, height, state.variantInfo.setup_rows);
  const name = $("setup-name").value.trim() || `setup ${new Date().toLocaleString()}`;
  try {
    await store.save(name, layout);
    $("setup-note").textContent = `Saved “${name}”${state.isAccount ? " to your account" : " in this browser"}.`;
    refreshSavedSetups();
  } catch (err) {
    showError(err.message);
  }
}

function loadSetup() {
  const value = $("saved-setups").value;
  if (!value || !canSetUp()) return;
  const { width, height } = state.view;
  const placements = placementsOf(JSON.parse(value), myColor(), width, height);
  // The whole army in one message: it replaces what is placed so far (docs/protocol.md).
  const pieces = Object.fromEntries(placements.map((p) => [String(p.square), p.rank]));
  send({ type: "setup", pieces });
  $("setup-note").textContent = "Loading the saved setup…";
}

// ------------------------------------------------------------------ drawing

// The status line: static/ui/status.js words it from the state (and what the page offers).
function statusText() {
  const join = [...document.querySelectorAll("#join-form button")].map((b) => b.textContent.trim());
  return wordStatus(state, { join, nicknameForm: !!$("nickname-form") });
}

function render() {
  draw();
  renderMatch(state, matchActions);
  keepFocus();
}

function draw() {
  const v = state.view;
  $("status").textContent = statusText();
  root.dataset.phase = v?.phase || "";
  root.dataset.status = state.game?.status || "";
  root.dataset.roleNow = state.role;
  root.dataset.turn = v?.turn ?? "";
  drawSeats(state);
  renderSpectators();
  drawTimers(state);
  const share = $("share");
  if (share) share.hidden = !(isPlayer() && state.game?.status === "waiting");
  // One "Copy link" at a time: the invitation box has its own while it is shown.
  $("btn-copy-link").hidden = !!share && !share.hidden;
  if (!v) return;
  board.layout(v.width, v.height, v.lakes, state.role === 1);
  const selectedTargets = canSetUp() ? new Set() : legalTargets(state.selected);
  const area = canSetUp() ? setupSquares() : new Set();
  const draggable = canSetUp()
    ? new Set(v.board.map((p, i) => (p && p.color === myColor() ? i : -1)).filter((i) => i >= 0))
    : movableSquares();
  board.render(v.board, {
    selected: state.selected,
    targets: selectedTargets,
    lastMove: v.last_move,
    setupArea: area,
    draggable,
    numbering: state.numbering,
  });
  renderBoardBattle(board, state);
  $("board").classList.toggle("my-turn", myTurn());

  const inSetup = v.phase === "setup" && active();
  $("setup-panel").hidden = !(isPlayer() && inSetup);
  if (isPlayer() && inSetup) {
    tray.render(v.remaining, myColor(), state.trayRank, state.numbering, canSetUp());
    const complete = countRemaining(v.remaining) === 0;
    $("btn-ready").disabled = !canSetUp() || !complete;
    $("btn-random").disabled = !canSetUp() || complete;
    $("btn-clear").disabled = !canSetUp() || countRemaining(v.remaining) === totalArmy();
    $("btn-remove").disabled = !canSetUp() || state.selected == null;
    $("btn-save").disabled = !complete || !state.variantInfo;
    if (complete && $("setup-note").textContent.startsWith("Loading")) $("setup-note").textContent = "Setup loaded.";
  }

  const playing = v.phase === "playing" && active();
  $("play-controls").hidden = !(isPlayer() && (playing || inSetup));
  const waiting = state.game.status === "waiting";
  $("btn-resign").textContent = waiting ? "Cancel this game" : "Resign";
  $("resign-question").textContent = waiting ? "Really cancel this game?" : "Really resign this game?";
  $("btn-resign-yes").textContent = waiting ? "Yes, cancel the game" : "Yes, resign";
  $("btn-resign-no").textContent = waiting ? "No, keep it" : "No, play on";
  const offer = state.game.draw_offer;
  $("btn-draw").hidden = !playing || offer === state.role;
  $("draw-offer").hidden = !playing || offer == null || offer === state.role;
  $("draw-pending").hidden = !playing || offer !== state.role;

  renderMoveList($("move-list"), [...state.moves.values()], state.numbering);
  renderBattle($("battle"), state.battleMove, state.numbering);
  if (state.battleMove) $("battle").setAttribute("aria-label", battleText(state.battleMove, state.numbering));

  const over = state.game.status === "finished" || state.game.status === "aborted";
  const banner = $("banner");
  banner.hidden = !over;
  $("status").hidden = over;
  if (over) {
    const mine = isPlayer() && state.game.result?.winner === state.role;
    const lost = isPlayer() && state.game.result && state.game.result.winner === 1 - state.role;
    banner.className = `banner${mine ? " won" : lost ? " lost" : ""}`;
    // Nothing to replay in a game cancelled before it began or ended before its first move.
    const played = Math.max(state.game.ply || 0, state.moves.size);
    $("replay-link").hidden = state.game.status === "aborted" || played === 0;
    $("banner-text").textContent = `${mine ? "You won! " : lost ? "You lost. " : ""}${resultText(state.game.result, state.game.seats) || "The game is over."}`;
  }
}

// The game's own army (a mini game may have drawn one), else the variant's.
function totalArmy() {
  const army = state.view?.army || state.variantInfo?.army;
  return army ? Object.values(army).reduce((a, b) => a + b, 0) : -1;
}

setInterval(() => {
  drawTimers(state);
  const next = expire(state, performance.now()); // notices and the board's battle go by themselves
  if (next !== state) {
    Object.assign(state, next);
    render();
  }
}, 200);

function renderSpectators() {
  const n = state.spectators ?? 0;
  $("spectators").textContent = `${n} watching`;
  $("spectators").dataset.count = n;
}

// Errors are notices (static/ui/match.js draws them over the page; they go away by themselves).
function showError(text) {
  if (!text) return;
  Object.assign(state, notify(state, text, "error", performance.now()));
  renderMatch(state, matchActions);
}

window.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape") clearSelection();
});

// ------------------------------------------------------------------ keyboard focus

// A redraw may disable or hide the control a keyboard user is on (READY once pressed,
// Random setup once the army is placed, the setup panel when the battle starts); focus then
// goes to the next sensible control instead of falling back to the page.
let keyboardUser = false;
let lastFocused = null;
document.addEventListener("keydown", () => (keyboardUser = true), true);
document.addEventListener("pointerdown", () => (keyboardUser = false), true);
document.addEventListener("focusin", (ev) => (lastFocused = ev.target));

function usable(el) {
  return el && el.isConnected && !el.disabled && el.getClientRects().length > 0;
}

function keepFocus() {
  const el = lastFocused;
  if (!keyboardUser || !el) return;
  const active = document.activeElement;
  const lost = !active || active === document.body || (active === el && !usable(el));
  if (!lost || usable(el)) return;
  const panelOpen = !$("setup-panel").hidden;
  if (panelOpen && usable($("btn-ready"))) $("btn-ready").focus();
  else if (panelOpen && $("tray").contains(el) && usable(tray.focusTarget())) tray.focusTarget().focus();
  else board.focus();
}

bindControls();
bindMatch(matchActions);
loadVariantInfo();
refreshSavedSetups();
render();

// What the server last sent, for the console and for the browser tests (read only).
window.strategoGame = { state, rankTitle, RED, OBSERVER };
