// The setup tray: every piece of the army with the number still to place.
// Click a piece to choose it, or drag it onto a square; drop a placed piece here to take it back.
//
// The buttons are built once per army and updated in place on every redraw, so keyboard
// focus stays on the piece a person is on. The tray is one Tab stop (a roving tabindex):
// the arrow keys, Home and End move between the pieces still to place; Enter chooses one.

import { TRAY_ORDER, pieceElement, rankTitle } from "./pieces.js";
import { gettext as _, interpolate as fmt } from "./i18n.js";

const COLUMNS = 6; // as .tray's grid in ui.css

export class Tray {
  // options: {onPick(rank), onDropPiece(square)}
  constructor(container, options = {}) {
    this.container = container;
    this.options = options;
    this.items = new Map(); // rank -> button
    this.buildKey = "";
    this.tabRank = null; // the piece that is the tray's Tab stop
    container.setAttribute("role", "listbox");
    container.setAttribute("aria-label", _("pieces still to place"));
    container.addEventListener("dragover", (ev) => ev.preventDefault());
    container.addEventListener("drop", (ev) => {
      ev.preventDefault();
      const payload = ev.dataTransfer.getData("text/plain");
      if (payload.startsWith("sq:")) this.options.onDropPiece?.(Number(payload.slice(3)));
    });
    container.addEventListener("keydown", (ev) => this.onKey(ev));
    container.addEventListener("focusin", (ev) => {
      const item = ev.target.closest?.(".tray-item");
      if (item) this.setTabStop(Number(item.dataset.rank));
    });
  }

  // remaining: {"10": 1, ...} from the view; color: the owner's colour.
  render(remaining, color, selectedRank, numbering, enabled) {
    if (!remaining) {
      this.container.hidden = true;
      return;
    }
    this.container.hidden = false;
    const ranks = TRAY_ORDER.filter((rank) => String(rank) in remaining);
    const key = `${ranks.join(",")}|${color}|${numbering}`;
    if (key !== this.buildKey) this.build(ranks, color, numbering);
    for (const rank of ranks) {
      const item = this.items.get(rank);
      const count = remaining[String(rank)];
      item.dataset.count = count;
      item.setAttribute("aria-selected", String(selectedRank === rank));
      item.setAttribute("aria-label", fmt(_("%(piece)s: %(count)s left"), { piece: rankTitle(rank, numbering), count }));
      item.classList.toggle("selected", selectedRank === rank);
      item.classList.toggle("empty", count === 0);
      item.disabled = !enabled || count === 0;
      item.draggable = enabled && count > 0;
      item.querySelector(".count").textContent = `×${count}`;
    }
    const usable = (rank) => rank != null && this.items.has(rank) && !this.items.get(rank).disabled;
    const focused = this.container.contains(document.activeElement)
      ? Number(document.activeElement.dataset.rank)
      : null;
    const stop = [focused, this.tabRank, selectedRank].find(usable) ?? this.enabledRanks()[0] ?? null;
    this.setTabStop(stop);
  }

  // A new set of buttons (another army, colour or numbering); focus moves to the same piece.
  build(ranks, color, numbering) {
    const hadFocus = this.container.contains(document.activeElement);
    const focusedRank = hadFocus ? Number(document.activeElement.dataset.rank) : null;
    this.buildKey = `${ranks.join(",")}|${color}|${numbering}`;
    this.items.clear();
    const buttons = ranks.map((rank) => {
      const item = document.createElement("button");
      item.type = "button";
      item.className = "tray-item";
      item.dataset.rank = rank;
      item.tabIndex = -1;
      item.setAttribute("role", "option");
      item.append(pieceElement({ color, rank }, numbering));
      const badge = document.createElement("span");
      badge.className = "count";
      item.append(badge);
      item.addEventListener("click", () => this.options.onPick?.(rank));
      item.addEventListener("dragstart", (ev) => {
        ev.dataTransfer.setData("text/plain", `rank:${rank}`);
        ev.dataTransfer.effectAllowed = "move";
      });
      this.items.set(rank, item);
      return item;
    });
    this.container.replaceChildren(...buttons);
    if (hadFocus && this.items.has(focusedRank)) this.items.get(focusedRank).focus();
  }

  enabledRanks() {
    return [...this.items.entries()].filter(([, item]) => !item.disabled).map(([rank]) => rank);
  }

  setTabStop(rank) {
    this.tabRank = rank;
    for (const [r, item] of this.items) item.tabIndex = r === rank ? 0 : -1;
  }

  // The selected piece's button, or the tray's Tab stop: where keyboard focus belongs.
  focusTarget() {
    return this.tabRank != null ? this.items.get(this.tabRank) : null;
  }

  onKey(ev) {
    const item = ev.target.closest?.(".tray-item");
    if (!item) return;
    const order = [...this.items.keys()];
    const here = order.indexOf(Number(item.dataset.rank));
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -COLUMNS, ArrowDown: COLUMNS }[ev.key];
    let next = null;
    if (step) {
      // The nearest piece still to place in that direction (empty ones are skipped).
      const dir = Math.sign(step);
      for (let i = here + step; i >= 0 && i < order.length; i += dir) {
        if (!this.items.get(order[i]).disabled) {
          next = order[i];
          break;
        }
      }
    } else if (ev.key === "Home") {
      next = this.enabledRanks()[0] ?? null;
    } else if (ev.key === "End") {
      next = this.enabledRanks().at(-1) ?? null;
    } else {
      return;
    }
    ev.preventDefault();
    if (next == null) return;
    this.setTabStop(next);
    this.items.get(next).focus();
  }
}

export function countRemaining(remaining) {
  return remaining ? Object.values(remaining).reduce((a, b) => a + b, 0) : 0;
}
