// Saved setups: on the server for accounts, in localStorage for guests. Either way the
// server checks the setup with the engine first, so only legal setups are saved.
// A layout is rows from the owner's back row, columns from the owner's left: layout[depth][col].

import { gettext as _ } from "./i18n.js";

const LOCAL_PREFIX = "stratego.setups.";

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

export function layoutFromBoard(board, color, width, height, rows) {
  const layout = [];
  for (let depth = 0; depth < rows; depth++) {
    const line = [];
    for (let col = 0; col < width; col++) {
      const piece = board[squareOf(color, depth, col, width, height)];
      line.push(piece && piece.color === color ? piece.rank : null);
    }
    layout.push(line);
  }
  return layout;
}

export function squareOf(color, depth, col, width, height) {
  return color === 0 ? depth * width + col : (height - 1 - depth) * width + (width - 1 - col);
}

// The placements {square, rank} that put `layout` on the board for `color`.
export function placementsOf(layout, color, width, height) {
  const out = [];
  layout.forEach((line, depth) =>
    line.forEach((rank, col) => {
      if (rank != null) out.push({ square: squareOf(color, depth, col, width, height), rank });
    }),
  );
  return out;
}

export class SetupStore {
  constructor(variant, isAccount) {
    this.variant = variant;
    this.isAccount = isAccount;
    this.url = `/games/setups/${variant}/`;
  }

  localList() {
    try {
      return JSON.parse(localStorage.getItem(LOCAL_PREFIX + this.variant) || "[]");
    } catch {
      return [];
    }
  }

  async list() {
    if (!this.isAccount) return this.localList();
    const response = await fetch(this.url, { credentials: "same-origin" });
    if (!response.ok) return [];
    return (await response.json()).setups;
  }

  // Resolves to the saved entry, or throws an Error with the engine's reason.
  async save(name, layout) {
    const response = await fetch(this.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ name, layout }),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.message || _("This setup cannot be saved."));
    if (body.stored) return body.setup;
    const entry = { id: `local-${Date.now()}`, name, layout, created: new Date().toISOString() };
    const list = this.localList().filter((s) => s.name !== name);
    list.unshift(entry);
    localStorage.setItem(LOCAL_PREFIX + this.variant, JSON.stringify(list.slice(0, 20)));
    return entry;
  }
}
