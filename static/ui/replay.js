// The replay of a finished game: positions computed by the engine on the server
// (games/review_views.py), stepped with first / previous / next / last, the arrow keys,
// Home / End, or a move of the list (every move is listed; the current one is marked).

import { Board } from "./board.js";
import { COLOR_NAMES, getNumbering } from "./pieces.js";
import { moveNotation, renderBattle, renderCaptured, renderMoveList, resultText } from "./moves.js";
import { bindNumberingSwitch } from "./common.js";
import { moveNumber } from "./reduce.js";
import { gettext as _, interpolate as fmt } from "./i18n.js";

const data = JSON.parse(document.getElementById("replay-data").textContent);
const $ = (id) => document.getElementById(id);
let numbering = getNumbering();
let index = 0;
const last = data.frames.length - 1;
const STEPS = ["btn-first", "btn-prev", "btn-next", "btn-last"];

const board = new Board($("board"), { label: _("replay board"), interactive: false });
const moves = data.frames.filter((f) => f.move).map((f) => f.move);
const list = $("move-list");

function go(i) {
  if (last < 1) return;
  index = Math.max(0, Math.min(last, i));
  render();
}

// Nothing to step through: a game cancelled before it began, or over before its first move.
function renderNothing() {
  const cancelled = data.result?.termination === "aborted";
  $("position").textContent = cancelled
    ? _("This game was cancelled before it started: there is nothing to replay.")
    : last < 0
      ? _("This game never left its setup: there is nothing to replay.")
      : _("This game ended before its first move: only the start position to show.");
  $("replay").dataset.empty = "1";
  for (const id of STEPS) $(id).disabled = true;
  $("step-hint").hidden = true;
  const none = document.createElement("li");
  none.className = "none";
  none.textContent = _("No moves.");
  list.replaceChildren(none);
  if (last === 0) {
    board.layout(data.width, data.height, data.lakes, false);
    board.render(data.frames[0].board, { numbering });
    renderCaptured($("captured"), data.frames[0].captured, numbering);
  } else {
    $("board-wrap").hidden = true;
  }
  $("result").textContent = cancelled ? "" : resultText(data.result, seats());
}

function seats() {
  return data.seats.map((name) => ({ name }));
}

// The whole list once (and again for the other numbering); stepping only moves the mark.
function renderList() {
  const focusedPly = list.contains(document.activeElement) ? document.activeElement.dataset.ply : null;
  renderMoveList(list, moves, numbering, { buttons: true });
  if (focusedPly) list.querySelector(`.mv[data-ply='${focusedPly}']`)?.focus();
}

function markList() {
  let current = null;
  list.querySelectorAll(".mv").forEach((el) => {
    const ply = Number(el.dataset.ply);
    el.classList.toggle("current", ply === index);
    el.classList.toggle("ahead", ply > index);
    if (ply === index) {
      el.setAttribute("aria-current", "step");
      current = el;
    } else {
      el.removeAttribute("aria-current");
    }
  });
  // A keyboard user on the list follows the current move.
  if (current && list.contains(document.activeElement)) current.focus({ preventScroll: true });
  if (current) {
    const top = current.offsetTop - list.clientHeight / 2;
    list.scrollTop = Math.max(0, top);
  } else if (index === 0) {
    list.scrollTop = 0;
  }
}

function render() {
  const frame = data.frames[index];
  board.layout(data.width, data.height, data.lakes, false);
  board.render(frame.board, { lastMove: frame.move, numbering });
  $("position").textContent =
    // Full moves, as the move list and the admin count them: "Move 64 of 127, Blue: E5-E6".
    index === 0
      ? fmt(_("Start position (%(count)s moves)"), { count: moveNumber(last) })
      : fmt(_("Move %(n)s of %(total)s, %(color)s: %(move)s"), { n: moveNumber(index), total: moveNumber(last), color: COLOR_NAMES[(index + 1) % 2], move: moveNotation(frame.move) });
  $("replay").dataset.ply = index;
  markList();
  renderCaptured($("captured"), frame.captured, numbering);
  renderBattle($("battle"), frame.move, numbering);
  $("btn-first").disabled = $("btn-prev").disabled = index === 0;
  $("btn-next").disabled = $("btn-last").disabled = index === last;
  $("result").textContent = index === last ? resultText(data.result, seats()) : "";
}

$("btn-first").addEventListener("click", () => go(0));
$("btn-prev").addEventListener("click", () => go(index - 1));
$("btn-next").addEventListener("click", () => go(index + 1));
$("btn-last").addEventListener("click", () => go(last));
list.addEventListener("click", (ev) => {
  const move = ev.target.closest(".mv");
  if (move) go(Number(move.dataset.ply));
});
document.addEventListener("keydown", (ev) => {
  if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
  const action = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: last }[ev.key];
  if (action === undefined) return;
  ev.preventDefault();
  go(action);
});
bindNumberingSwitch($("numbering"), (value) => {
  numbering = value;
  if (last < 1) return renderNothing();
  renderList();
  render();
});

if (last < 1) {
  renderNothing();
} else {
  renderList();
  render();
}
