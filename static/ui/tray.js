// The setup tray (seed 000): every piece of the army with the number still to place.
// Click a piece to choose it, or drag it onto a square; drop a placed piece here to take it back.

import { TRAY_ORDER, pieceElement, rankTitle } from "./pieces.js";

export class Tray {
  // options: {onPick(rank), onDropPiece(square)}
  constructor(container, options = {}) {
    this.container = container;
    this.options = options;
    container.setAttribute("role", "listbox");
    container.setAttribute("aria-label", "pieces still to place");
    container.addEventListener("dragover", (ev) => ev.preventDefault());
    container.addEventListener("drop", (ev) => {
      ev.preventDefault();
      const payload = ev.dataTransfer.getData("text/plain");
      if (payload.startsWith("sq:")) this.options.onDropPiece?.(Number(payload.slice(3)));
    });
  }

  // remaining: {"10": 1, ...} from the view; color: the owner's colour.
  render(remaining, color, selectedRank, numbering, enabled) {
    this.container.replaceChildren();
    if (!remaining) {
      this.container.hidden = true;
      return;
    }
    this.container.hidden = false;
    const ranks = TRAY_ORDER.filter((rank) => String(rank) in remaining);
    for (const rank of ranks) {
      const count = remaining[String(rank)];
      const item = document.createElement("button");
      item.type = "button";
      item.className = "tray-item";
      item.dataset.rank = rank;
      item.dataset.count = count;
      item.setAttribute("role", "option");
      item.setAttribute("aria-selected", String(selectedRank === rank));
      item.setAttribute("aria-label", `${rankTitle(rank, numbering)}: ${count} left`);
      item.classList.toggle("selected", selectedRank === rank);
      item.classList.toggle("empty", count === 0);
      item.disabled = !enabled || count === 0;
      item.draggable = enabled && count > 0;
      item.append(pieceElement({ color, rank }, numbering));
      const badge = document.createElement("span");
      badge.className = "count";
      badge.textContent = `×${count}`;
      item.append(badge);
      item.addEventListener("click", () => this.options.onPick?.(rank));
      item.addEventListener("dragstart", (ev) => {
        ev.dataTransfer.setData("text/plain", `rank:${rank}`);
        ev.dataTransfer.effectAllowed = "move";
      });
      this.container.append(item);
    }
  }
}

export function countRemaining(remaining) {
  return remaining ? Object.values(remaining).reduce((a, b) => a + b, 0) : 0;
}
