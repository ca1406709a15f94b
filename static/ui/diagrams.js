// The rules page: each diagram is a small position drawn by the game's board code; its marked
// squares are the legal moves the server's engine gave (learn/diagrams.py). The pieces' table
// is filled from the same names and words as the game's legend.

import { Board } from "./board.js";
import { OBSERVER, getNumbering, pieceElement, RANK_ROLES, rankTitle } from "./pieces.js";

const diagrams = JSON.parse(document.getElementById("diagram-data").textContent);
const numbering = getNumbering();

for (const box of document.querySelectorAll("[data-diagram]")) {
  const d = diagrams[box.dataset.diagram];
  if (!d) continue;
  const wrap = document.createElement("div");
  wrap.className = "board-wrap";
  const el = document.createElement("div");
  wrap.append(el);
  box.append(wrap);
  const board = new Board(el, { interactive: false, label: box.dataset.diagram });
  board.layout(d.width, d.height, d.lakes, false);
  board.render(d.board, { selected: d.selected, targets: new Set(d.targets), numbering });
}

for (const row of document.querySelectorAll("#pieces-table tr[data-rank]")) {
  const rank = Number(row.dataset.rank);
  const piece = pieceElement({ color: OBSERVER, rank }, numbering);
  row.querySelector(".icon").append(piece);
  row.querySelector(".name").textContent = rankTitle(rank, numbering);
  row.querySelector(".role").textContent = RANK_ROLES[rank];
}
