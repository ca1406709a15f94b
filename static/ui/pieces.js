// Piece names, labels in both numberings, and the SVG drawing of a piece.
// Ranks are the engine's ints: SPY=1 .. MARSHAL=10, BOMB=11, FLAG=12.

export const RED = 0;
export const BLUE = 1;
export const OBSERVER = 2;
export const COLOR_NAMES = ["Red", "Blue"];

export const RANK_NAMES = {
  1: "Spy", 2: "Scout", 3: "Miner", 4: "Sergeant", 5: "Lieutenant", 6: "Captain",
  7: "Major", 8: "Colonel", 9: "General", 10: "Marshal", 11: "Bomb", 12: "Flag",
};

// The tray's order, as in seed 000: marshal .. lieutenant, then sergeant .. flag.
export const TRAY_ORDER = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 11, 12];

const NUMBERING_KEY = "stratego.numbering";

export function getNumbering() {
  try {
    return localStorage.getItem(NUMBERING_KEY) === "classic" ? "classic" : "modern";
  } catch {
    return "modern";
  }
}

export function setNumbering(value) {
  try {
    localStorage.setItem(NUMBERING_KEY, value === "classic" ? "classic" : "modern");
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}

// The short label drawn on a piece: modern (10 = Marshal) or classic (1 = Marshal).
export function rankLabel(rank, numbering = getNumbering()) {
  if (rank === 1) return "S";
  if (rank === 11) return "B";
  if (rank === 12) return "F";
  if (rank >= 2 && rank <= 10) return String(numbering === "classic" ? 11 - rank : rank);
  return "";
}

export function rankTitle(rank, numbering = getNumbering()) {
  if (rank == null) return "unknown piece";
  const label = rankLabel(rank, numbering);
  const name = RANK_NAMES[rank] || "?";
  return /^\d+$/.test(label) ? `${name} (${label})` : name;
}

export function pieceDescription(piece, numbering = getNumbering()) {
  if (!piece) return "empty";
  const who = COLOR_NAMES[piece.color];
  if (piece.rank == null) {
    const hints = [];
    if (piece.scout) hints.push("a scout by its move");
    else if (piece.moved) hints.push("has moved");
    return `${who} hidden piece${hints.length ? ` (${hints.join(", ")})` : ""}`;
  }
  return `${who} ${rankTitle(piece.rank, numbering)}`;
}

const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(name, attrs = {}) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

// Red and Blue differ by shape and marker as well as colour:
// Red is a round token with a triangle mark, Blue a square token with a bar mark.
export function pieceSVG(piece, numbering = getNumbering()) {
  const colorName = piece.color === RED ? "red" : "blue";
  const svg = svgEl("svg", { viewBox: "0 0 100 100", class: `piece-svg piece-${colorName}`, "aria-hidden": "true" });
  if (piece.color === RED) {
    svg.append(svgEl("circle", { cx: 50, cy: 50, r: 44, class: "token" }));
    svg.append(svgEl("path", { d: "M42 22 L50 9 L58 22 Z", class: "marker" }));
  } else {
    svg.append(svgEl("rect", { x: 7, y: 7, width: 86, height: 86, rx: 10, class: "token" }));
    svg.append(svgEl("rect", { x: 37, y: 12, width: 26, height: 7, class: "marker" }));
  }
  const known = piece.rank != null;
  const label = known ? rankLabel(piece.rank, numbering) : piece.scout ? rankLabel(2, numbering) : "";
  if (label) {
    const text = svgEl("text", {
      // Low enough to leave a gap under the marker even on the smallest pieces.
      x: 50, y: 62, "text-anchor": "middle", "dominant-baseline": "central",
      class: known ? "label" : "label guess",
      "font-size": label.length > 1 ? 36 : 42,
    });
    text.textContent = label;
    svg.append(text);
  }
  if (!known && piece.moved && !piece.scout) {
    svg.append(svgEl("circle", { cx: 50, cy: 78, r: 6, class: "moved-dot" }));
  }
  return svg;
}

export function pieceElement(piece, numbering = getNumbering()) {
  const span = document.createElement("span");
  span.className = `piece ${piece.color === RED ? "red" : "blue"}${piece.rank == null ? " hidden" : ""}`;
  span.append(pieceSVG(piece, numbering));
  return span;
}
