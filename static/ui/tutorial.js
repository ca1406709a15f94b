// The tutorial's lessons: the board code of the game page draws a small position; every move
// tried goes to the server, whose engine judges it (learn/tutor.py). This page knows no rule:
// the marked squares are the legal moves the server sent.

import { Board } from "./board.js";
import { getNumbering, pieceElement, pieceInfo, rankTitle } from "./pieces.js";
import { lessonAfter, tutorialMarks } from "./lessons.js";
import { gettext as _, interpolate as fmt } from "./i18n.js";

const data = JSON.parse(document.getElementById("tutorial-data").textContent);
const $ = (id) => document.getElementById(id);
const DONE_KEY = "stratego.lessons.done";

let slug = data.first;
let state = null; // the server's answer: board, legal moves, words, status
let selected = null;
let trayRank = null;
let busy = false;

const board = new Board($("board"), { label: _("lesson board"), onSquare: (sq) => onSquare(sq) });

function doneLessons() {
  try {
    return new Set(JSON.parse(localStorage.getItem(DONE_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

function markDone(name) {
  const done = doneLessons();
  done.add(name);
  try {
    localStorage.setItem(DONE_KEY, JSON.stringify([...done]));
  } catch {
    /* private mode: remembered for this page only */
  }
}

async function ask(body) {
  busy = true;
  try {
    const url = data.url.replace("SLUG", slug);
    const response = body
      ? await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      : await fetch(url);
    if (!response.ok) return;
    state = await response.json();
    if (state.status === "done") markDone(slug);
    if (state.status === "failed") {
      // The try starts again after a moment, the reason still shown.
      const said = state.say;
      const battle = state.battle;
      render();
      setTimeout(async () => {
        await ask(null);
        $("lesson-refused").hidden = false;
        $("lesson-refused").textContent = said;
        showBattle(battle);
      }, 1400);
      return;
    }
    render();
  } finally {
    busy = false;
  }
}

function open(name) {
  slug = name;
  selected = null;
  trayRank = null;
  history.replaceState(null, "", `?lesson=${name}`);
  ask(null);
}

function onSquare(sq) {
  if (!state || busy || state.status !== "playing") return;
  if (state.remaining) {
    // The setup lesson: a piece chosen in the tray goes to the square tapped.
    if (trayRank == null) return showInfo(state.board[sq]);
    ask({ moves: state.placements, tried: [sq, trayRank] });
    trayRank = null;
    return;
  }
  const piece = state.board[sq];
  showInfo(piece);
  if (piece && piece.color === 0) {
    selected = selected === sq ? null : sq;
    return render();
  }
  if (selected == null) return;
  const from = selected;
  selected = null;
  ask({ moves: state.moves, tried: [from, sq] });
}

function showInfo(piece) {
  if (piece) $("piece-info").textContent = pieceInfo(piece);
}

function showBattle(battle) {
  const box = $("lesson-battle");
  box.hidden = !battle;
  if (!battle) return;
  const won = { attacker: _("your piece won"), defender: _("the defender won"), both: _("both pieces left the board") }[battle.result];
  box.textContent = fmt(_("Battle: %(attacker)s against %(defender)s: %(result)s."), { attacker: rankTitle(battle.attacker), defender: rankTitle(battle.defender), result: won });
}

function renderTray() {
  const tray = $("lesson-tray");
  tray.hidden = !state.remaining;
  if (!state.remaining) return;
  tray.replaceChildren(
    ...[12, 11].map((rank) => {
      const count = state.remaining[String(rank)] || 0;
      const button = document.createElement("button");
      button.type = "button";
      button.className = `tray-item${trayRank === rank ? " selected" : ""}`;
      button.dataset.rank = rank;
      button.disabled = count === 0 || state.status !== "playing";
      button.setAttribute("aria-pressed", String(trayRank === rank));
      button.append(pieceElement({ color: 0, rank }));
      const label = document.createElement("span");
      label.className = "count";
      label.textContent = `${rankTitle(rank)} ×${count}`;
      button.append(label);
      button.addEventListener("click", () => {
        trayRank = trayRank === rank ? null : rank;
        showInfo({ color: 0, rank });
        renderTray();
      });
      return button;
    }),
  );
}

function render() {
  const numbering = getNumbering();
  const index = data.lessons.findIndex((x) => x.slug === slug);
  $("lesson-title").textContent = `${index + 1}. ${data.lessons[index].title}`;
  $("lesson-say").textContent = state.say;
  $("lesson-refused").hidden = !state.refused;
  $("lesson-refused").textContent = state.refused;
  showBattle(state.battle);
  board.layout(state.width, state.height, state.lakes, false);
  board.render(state.board, { ...tutorialMarks(state, selected), numbering });
  for (const sq of state.marks) board.cells[sq]?.classList.add("goal");
  renderTray();
  const done = state.status === "done";
  $("lesson-done").hidden = !done;
  const next = lessonAfter(data.lessons, slug);
  $("btn-next-lesson").hidden = !next;
  $("tutorial").dataset.status = state.status;
  $("tutorial").dataset.lesson = slug;
  const finished = doneLessons();
  for (const link of document.querySelectorAll("#lesson-list a")) {
    link.classList.toggle("done", finished.has(link.dataset.lesson));
    if (link.dataset.lesson === slug) link.setAttribute("aria-current", "step");
    else link.removeAttribute("aria-current");
  }
}

document.getElementById("lesson-list").addEventListener("click", (ev) => {
  const link = ev.target.closest("a[data-lesson]");
  if (!link) return;
  ev.preventDefault();
  open(link.dataset.lesson);
});
$("btn-restart").addEventListener("click", () => open(slug));
$("btn-next-lesson").addEventListener("click", () => {
  const next = lessonAfter(data.lessons, slug);
  if (next) open(next);
});
$("board").addEventListener("mouseover", (ev) => {
  const cell = ev.target.closest?.(".sq");
  if (cell && state) showInfo(state.board[Number(cell.dataset.square)]);
});

open(slug);
window.strategoTutorial = { state: () => state };
