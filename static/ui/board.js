// The board: a grid of square buttons drawn from the engine's view.
// Squares are the engine's ints (row * width + col, row 0 = Red's back row).
// The board only draws and reports clicks, drops and keys; it knows no rule.

import { pieceDescription, pieceElement } from "./pieces.js";
import { gettext as _, interpolate as fmt } from "./i18n.js";

const COLUMNS = "ABCDEFGHIK";

export function squareName(square, width) {
  const row = Math.floor(square / width);
  const col = square % width;
  return `${COLUMNS[col]}${row + 1}`;
}

export class Board {
  // options: {onSquare(square), onDrop(payload, square), dragPayload(square) -> string|null, label}
  constructor(container, options = {}) {
    this.container = container;
    this.options = options;
    this.width = 0;
    this.height = 0;
    this.flipped = false;
    this.cells = [];
    this.focusSquare = null;
  }

  // Red's back row at the bottom, unless flipped (Blue's own view).
  layout(width, height, lakes, flipped) {
    if (width === this.width && height === this.height && flipped === this.flipped && this.cells.length) return;
    // Rebuilt (the first view, or flipped when a seat is taken): focus stays on its square.
    const hadFocus = this.container.contains(document.activeElement);
    if (this.width !== width || this.height !== height) this.focusSquare = null;
    this.width = width;
    this.height = height;
    this.flipped = flipped;
    this.container.replaceChildren();
    this.container.classList.add("board");
    this.container.classList.toggle("mini", width <= 6);
    this.container.style.setProperty("--cols", width);
    this.container.setAttribute("role", "grid");
    this.container.setAttribute("aria-label", this.options.label || "board");
    this.cells = new Array(width * height);
    const lakeSet = new Set(lakes);
    for (let displayRow = 0; displayRow < height; displayRow++) {
      const rowEl = document.createElement("div");
      rowEl.setAttribute("role", "row");
      rowEl.className = "board-row";
      for (let displayCol = 0; displayCol < width; displayCol++) {
        const square = this.squareAt(displayRow, displayCol);
        const cell = document.createElement("button");
        cell.type = "button";
        cell.className = "sq";
        cell.dataset.square = square;
        cell.dataset.name = squareName(square, width);
        cell.setAttribute("role", "gridcell");
        cell.tabIndex = -1;
        if (lakeSet.has(square)) {
          cell.classList.add("lake");
          cell.setAttribute("aria-label", fmt(_("%(square)s lake"), { square: cell.dataset.name }));
        }
        if (displayCol === 0) cell.dataset.rank = String(Math.floor(square / width) + 1);
        if (displayRow === height - 1) cell.dataset.file = COLUMNS[square % width];
        if (this.options.interactive === false) cell.disabled = true;
        else this.bindCell(cell, square);
        rowEl.append(cell);
        this.cells[square] = cell;
      }
      this.container.append(rowEl);
    }
    if (this.options.interactive !== false) {
      this.setFocusable(this.focusSquare ?? this.squareAt(height - 1, 0));
      if (hadFocus) this.focus();
    }
  }

  // Keyboard focus to the board's one Tab stop (the last square used).
  focus() {
    this.cells[this.focusSquare]?.focus();
  }

  squareAt(displayRow, displayCol) {
    const row = this.flipped ? displayRow : this.height - 1 - displayRow;
    const col = this.flipped ? this.width - 1 - displayCol : displayCol;
    return row * this.width + col;
  }

  displayOf(square) {
    const row = Math.floor(square / this.width);
    const col = square % this.width;
    return this.flipped ? [row, this.width - 1 - col] : [this.height - 1 - row, col];
  }

  bindCell(cell, square) {
    cell.addEventListener("click", () => {
      this.setFocusable(square);
      this.options.onSquare?.(square);
    });
    cell.addEventListener("keydown", (ev) => this.onKey(ev, square));
    cell.addEventListener("dragstart", (ev) => {
      const payload = this.options.dragPayload?.(square);
      if (!payload) {
        ev.preventDefault();
        return;
      }
      ev.dataTransfer.setData("text/plain", payload);
      ev.dataTransfer.effectAllowed = "move";
      this.options.onDragStart?.(square);
    });
    cell.addEventListener("dragover", (ev) => {
      ev.preventDefault();
      ev.dataTransfer.dropEffect = "move";
    });
    cell.addEventListener("drop", (ev) => {
      ev.preventDefault();
      const payload = ev.dataTransfer.getData("text/plain");
      if (payload) this.options.onDrop?.(payload, square);
    });
  }

  onKey(ev, square) {
    const [r, c] = this.displayOf(square);
    const delta = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[ev.key];
    if (delta) {
      ev.preventDefault();
      const nr = Math.min(this.height - 1, Math.max(0, r + delta[0]));
      const nc = Math.min(this.width - 1, Math.max(0, c + delta[1]));
      const next = this.squareAt(nr, nc);
      this.setFocusable(next);
      this.cells[next].focus();
    } else if (ev.key === "Escape") {
      this.options.onEscape?.();
    } else if (ev.key === "Delete" || ev.key === "Backspace") {
      ev.preventDefault();
      this.options.onDelete?.(square);
    }
  }

  setFocusable(square) {
    if (this.focusSquare != null && this.cells[this.focusSquare]) this.cells[this.focusSquare].tabIndex = -1;
    this.focusSquare = square;
    if (this.cells[square]) this.cells[square].tabIndex = 0;
  }

  // marks: {selected, targets:Set, lastMove:{from,to}, setupArea:Set, draggable:Set, numbering}
  render(board, marks = {}) {
    const targets = marks.targets || new Set();
    const setupArea = marks.setupArea || new Set();
    const draggable = marks.draggable || new Set();
    const last = marks.lastMove;
    this.cells.forEach((cell, square) => {
      if (!cell || cell.classList.contains("lake")) return;
      const piece = board[square];
      cell.replaceChildren();
      if (piece) cell.append(pieceElement(piece, marks.numbering));
      if (targets.has(square)) {
        // A legal destination: a dot on an empty square, corner marks around a piece to attack.
        const marker = document.createElement("span");
        marker.className = piece ? "dest attack" : "dest";
        marker.setAttribute("aria-hidden", "true");
        cell.append(marker);
      }
      cell.classList.toggle("selected", marks.selected === square);
      cell.classList.toggle("target", targets.has(square));
      cell.classList.toggle("setup-area", setupArea.has(square));
      cell.classList.toggle("last-from", !!last && last.from === square);
      cell.classList.toggle("last-to", !!last && last.to === square);
      cell.classList.toggle("occupied", !!piece);
      cell.draggable = draggable.has(square);
      const parts = [cell.dataset.name, pieceDescription(piece, marks.numbering)];
      if (marks.selected === square) parts.push(_("selected"));
      if (targets.has(square)) parts.push(_("legal destination"));
      if (last && last.to === square) parts.push(_("last move"));
      cell.setAttribute("aria-label", parts.join(", "));
    });
  }
}
