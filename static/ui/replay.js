// The replay of a finished game: positions computed by the engine on the server
// (games/review_views.py), stepped with first / previous / next / last and the arrow keys.

import { Board } from "./board.js";
import { getNumbering } from "./pieces.js";
import { renderBattle, renderCaptured, renderMoveList, resultText } from "./moves.js";
import { bindNumberingSwitch } from "./common.js";

const data = JSON.parse(document.getElementById("replay-data").textContent);
const $ = (id) => document.getElementById(id);
let numbering = getNumbering();
let index = 0;
const last = data.frames.length - 1;

const board = new Board($("board"), { label: "replay board", interactive: false });
const moves = data.frames.filter((f) => f.move).map((f) => f.move);

function go(i) {
  index = Math.max(0, Math.min(last, i));
  render();
}

function render() {
  if (last < 0) {
    $("position").textContent = "This game never left its setup: nothing to replay.";
    return;
  }
  const frame = data.frames[index];
  board.layout(data.width, data.height, data.lakes, false);
  board.render(frame.board, { lastMove: frame.move, numbering });
  $("position").textContent =
    index === 0 ? `Start position (${last} moves)` : `Move ${index} of ${last}: ${frame.move.notation}`;
  $("replay").dataset.ply = index;
  renderMoveList($("move-list"), moves.slice(0, index), numbering);
  $("move-list").querySelectorAll(".mv").forEach((el) => {
    el.classList.toggle("current", Number(el.dataset.ply) === index);
  });
  const list = $("move-list");
  const current = list.querySelector(".mv.current");
  if (current) list.scrollTop = Math.max(0, current.offsetTop - list.clientHeight / 2);
  renderCaptured($("captured"), frame.captured, numbering);
  renderBattle($("battle"), frame.move, numbering);
  $("btn-first").disabled = $("btn-prev").disabled = index === 0;
  $("btn-next").disabled = $("btn-last").disabled = index === last;
  $("result").textContent = index === last ? resultText(data.result, data.seats.map((n) => ({ name: n }))) : "";
}

$("btn-first").addEventListener("click", () => go(0));
$("move-list").addEventListener("click", (ev) => {
  const move = ev.target.closest(".mv");
  if (move) go(Number(move.dataset.ply));
});
$("btn-prev").addEventListener("click", () => go(index - 1));
$("btn-next").addEventListener("click", () => go(index + 1));
$("btn-last").addEventListener("click", () => go(last));
document.addEventListener("keydown", (ev) => {
  if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
  const action = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: last }[ev.key];
  if (action === undefined) return;
  ev.preventDefault();
  go(action);
});
bindNumberingSwitch($("numbering"), (value) => {
  numbering = value;
  render();
});
render();
