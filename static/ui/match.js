// The match around the board: abort, rematch, chat, notices, the graveyard, the
// battle on the board, sounds and the tab title. Each render function reads the state that
// static/ui/reduce.js made; none reads the DOM for what the game is. Text is always set with
// textContent, so a chat message is shown as typed, never as HTML.

import { COLOR_NAMES, pieceElement, rankTitle, renderLegend } from "./pieces.js";
import { canAbort, graveyard, isOver, rematchStage, tabTitle } from "./reduce.js";
import { playCues, soundOn, setSound } from "./sounds.js";
import { bindNotifications, titleFor } from "./notify.js";
import { nameNodes } from "./timers.js";
import { canReport, reportButton } from "./report.js";
import { gettext as _, interpolate as fmt } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const BASE_TITLE = document.title;
const MUTE_KEY = (gameId) => `stratego.mute.${gameId}`;

// actions: {send(message), state() -> the page's state}
export function bindMatch(actions) {
  // The opponent has joined by the time Abort shows: it asks first.
  $("btn-abort")?.addEventListener("click", () => {
    $("abort-confirm").hidden = false;
    $("btn-abort-no").focus();
  });
  $("btn-abort-no")?.addEventListener("click", () => ($("abort-confirm").hidden = true));
  $("btn-abort-yes")?.addEventListener("click", () => {
    $("abort-confirm").hidden = true;
    actions.send({ type: "abort" });
  });
  $("btn-rematch")?.addEventListener("click", () => actions.send({ type: "offer_rematch" }));
  $("btn-rematch-accept")?.addEventListener("click", () => actions.send({ type: "accept_rematch" }));
  $("btn-rematch-decline")?.addEventListener("click", () => actions.send({ type: "decline_rematch" }));
  $("chat-form")?.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return;
    const role = actions.state().role;
    const room = role === 0 || role === 1 ? "players" : $("chat-room")?.value || "spectators";
    actions.send({ type: "chat", room, text });
    input.value = "";
  });
  $("chat-mute")?.addEventListener("change", (ev) => {
    setMuted(actions.state().gameId, ev.currentTarget.checked);
    renderMatch(actions.state(), actions);
  });
  const sound = $("sound-toggle");
  if (sound) {
    sound.checked = soundOn();
    sound.addEventListener("change", () => setSound(sound.checked));
  }
  bindNotifications($("notify-toggle"), () => (document.title = titleFor(tabTitle(actions.state(), BASE_TITLE))));
}

export async function loadChat(gameId) {
  const response = await fetch(`/games/${gameId}/chat.json`, { credentials: "same-origin" });
  if (!response.ok) return null;
  return (await response.json()).messages;
}

function muted(gameId) {
  try {
    return localStorage.getItem(MUTE_KEY(gameId)) === "1";
  } catch {
    return false;
  }
}

function setMuted(gameId, value) {
  try {
    if (value) localStorage.setItem(MUTE_KEY(gameId), "1");
    else localStorage.removeItem(MUTE_KEY(gameId));
  } catch {
    /* private mode: for this page only */
  }
}

export function renderMatch(state, actions) {
  renderAbort(state);
  renderRematch(state);
  renderChat(state);
  renderNotices(state);
  renderGraveyard(state);
  const legend = $("legend");
  if (legend && legend.dataset.numbering !== state.numbering) {
    renderLegend(legend, state.numbering);
    legend.dataset.numbering = state.numbering;
  }
  document.title = titleFor(tabTitle(state, BASE_TITLE));
  if (state.cues.length) {
    playCues(state.cues);
    state.cues = []; // (played: the only state this module changes)
  }
  void actions;
}

function renderAbort(state) {
  const button = $("btn-abort");
  if (button) button.hidden = !canAbort(state);
  if (button?.hidden && $("abort-confirm")) $("abort-confirm").hidden = true;
}

function renderRematch(state) {
  const box = $("rematch");
  if (!box) return;
  const stage = rematchStage(state);
  box.hidden = stage == null;
  box.dataset.stage = stage || "";
  $("btn-rematch").hidden = stage !== "offer";
  $("rematch-answer").hidden = stage !== "answer";
  $("rematch-sent").hidden = stage !== "sent";
  const link = $("rematch-link");
  link.hidden = stage !== "open";
  if (stage === "open") link.href = `/games/${state.rematch.game}/`;
}

function renderChat(state) {
  const list = $("chat-list");
  if (!list) return;
  const player = state.role === 0 || state.role === 1;
  const mute = player && muted(state.gameId);
  $("chat-mute-label").hidden = !player;
  $("chat-mute").checked = mute;
  const room = $("chat-room"); // (no form for a visitor without a nickname)
  if (room) room.hidden = player; // players write in the players' chat; spectators choose
  const shown = state.chat.filter((m) => !(mute && m.room === "players" && m.role === 1 - state.role));
  if (list.dataset.count !== String(shown.length)) {
    list.replaceChildren(...shown.map(chatItem));
    list.dataset.count = String(shown.length);
    list.scrollTop = list.scrollHeight;
  }
  const hidden = $("chat-hidden");
  hidden.hidden = !(player && state.hiddenChat > 0 && !isOver(state));
  hidden.textContent = _("The spectators are chatting: you can read it after the game.");
}

function chatItem(message) {
  const li = document.createElement("li");
  li.className = `chat-line room-${message.room}`;
  const who = document.createElement("b");
  // "Ada (guest, Red): ..." as the lobby says it; an account's name links to its profile.
  const where = message.role === 0 || message.role === 1 ? COLOR_NAMES[message.role] : _("watching");
  const name = message.guest ? [message.name] : nameNodes(message);
  who.append(...name, ` (${message.guest ? `${_("guest")}, ` : ""}${where}): `);
  const text = document.createElement("span");
  text.className = "chat-text";
  text.textContent = message.text;
  li.append(who, text);
  if (message.version != null && canReport(message)) li.append(reportButton(message));
  return li;
}

function renderNotices(state) {
  const box = $("notices");
  if (!box) return;
  const ids = state.notices.map((n) => n.id).join(",");
  if (box.dataset.ids === ids) return;
  box.dataset.ids = ids;
  box.replaceChildren(
    ...state.notices.map((n) => {
      const p = document.createElement("p");
      p.className = `notice ${n.kind}`;
      p.textContent = n.text;
      return p;
    }),
  );
}

function renderGraveyard(state) {
  const table = $("graveyard");
  if (!table) return;
  // In the setup nothing has been fought yet: the panel shows from the first move on.
  table.closest("section").hidden = !state.view || state.view.phase === "setup";
  const body = table.tBodies[0];
  const rows = graveyard(state.view);
  body.replaceChildren(
    ...rows.map((row) => {
      const tr = document.createElement("tr");
      tr.dataset.rank = row.rank;
      const name = document.createElement("th");
      name.scope = "row";
      const icon = pieceElement({ color: 2, rank: row.rank }, state.numbering);
      icon.classList.add("small");
      const label = document.createElement("span");
      label.textContent = rankTitle(row.rank, state.numbering);
      name.append(icon, label);
      const cells = [0, 1].map((color) => {
        const td = document.createElement("td");
        td.className = `left color-${color}`;
        td.dataset.color = color;
        td.textContent = `${row.left[color]}/${row.total}`;
        td.title = fmt(_("%(color)s: %(left)s on the board, %(fallen)s fallen"), { color: COLOR_NAMES[color], left: row.left[color], fallen: row.fallen[color] });
        if (row.left[color] === 0) td.classList.add("none-left");
        return td;
      });
      tr.append(name, ...cells);
      return tr;
    }),
  );
}

// A battle just fought, on the board itself: both pieces on the square for a moment.
export function renderBoardBattle(board, state) {
  for (const cell of board.cells) cell?.classList.remove("battle-here");
  const battle = state.boardBattle;
  if (!battle) return;
  const cell = board.cells[battle.move.to];
  if (!cell) return;
  const b = battle.move.battle;
  const clash = document.createElement("span");
  clash.className = "clash";
  clash.setAttribute("aria-hidden", "true");
  const attacker = pieceElement({ color: battle.move.color, rank: b.attacker }, state.numbering);
  const defender = pieceElement({ color: 1 - battle.move.color, rank: b.defender }, state.numbering);
  attacker.classList.add("attacker", b.result === "attacker" ? "won" : "lost");
  defender.classList.add("defender", b.result === "defender" ? "won" : "lost");
  clash.append(attacker, defender);
  cell.append(clash);
  cell.classList.add("battle-here");
}
