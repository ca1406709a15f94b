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

// One icon per rank, white on the token (a 100x100 box; the rank's number stays in the
// top-left corner, in the numbering chosen). Shipped here: no image file, no CDN.
// fill: shapes; line: strokes.
const ICONS = {
  10: { fill: ["M27 76 L27 46 L39 60 L50 38 L61 60 L73 46 L73 76 Z"] }, // Marshal: a crown
  9: { fill: ["M50.0 38.0 L55.3 52.7 L70.9 53.2 L58.6 62.8 L62.9 77.8 L50.0 69.0 L37.1 77.8 L41.4 62.8 L29.1 53.2 L44.7 52.7 Z"] }, // General: a star
  8: { fill: ["M33 40 L67 40 L67 58 Q67 73 50 81 Q33 73 33 58 Z"] }, // Colonel: a shield
  7: { fill: ["M50 36 L67 59 L50 82 L33 59 Z"] }, // Major: a diamond
  6: { fill: ["M31 45 H69 V54 H31 Z", "M31 63 H69 V72 H31 Z"] }, // Captain: two bars
  5: { fill: ["M31 54 H69 V64 H31 Z"] }, // Lieutenant: one bar
  4: { line: ["M31 47 L50 58 L69 47", "M31 58 L50 69 L69 58", "M31 69 L50 80 L69 69"] }, // Sergeant: chevrons
  3: { line: ["M34 80 L64 44"], fill: ["M44 36 Q64 28 80 48 Q64 38 48 42 Z"] }, // Miner: a pickaxe
  2: { line: ["M26 60 H62"], fill: ["M58 47 L78 60 L58 73 Z"] }, // Scout: an arrow (runs far)
  1: { line: ["M27 60 Q50 40 73 60 Q50 80 27 60 Z"], fill: ["M43 60 A7 7 0 1 0 57 60 A7 7 0 1 0 43 60 Z"] }, // Spy: an eye
  11: { fill: ["M33 63 A16 16 0 1 0 65 63 A16 16 0 1 0 33 63 Z"], line: ["M58 49 Q62 38 72 38"] }, // Bomb
  12: { line: ["M35 36 V82"], fill: ["M37 37 L73 48 L37 59 Z"] }, // Flag
};

const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(name, attrs = {}) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

// Red and Blue differ by shape and marker as well as colour:
// Red is a round token with a triangle mark, Blue a square token with a bar mark.
export function pieceSVG(piece, numbering = getNumbering()) {
  const colorName = piece.color === RED ? "red" : piece.color === BLUE ? "blue" : "neutral";
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
  const icon = ICONS[known ? piece.rank : piece.scout ? 2 : 0];
  if (icon) {
    const g = svgEl("g", { class: known ? "icon" : "icon guess" });
    for (const d of icon.fill || []) g.append(svgEl("path", { d, class: "icon-fill" }));
    for (const d of icon.line || []) g.append(svgEl("path", { d, class: "icon-line" }));
    svg.append(g);
  }
  if (label) {
    // The number in the top-left corner (both numberings switchable), large enough on a phone.
    const text = svgEl("text", {
      x: 29, y: 31, "text-anchor": "middle", "dominant-baseline": "central",
      class: known ? "label" : "label guess",
      "font-size": label.length > 1 ? 26 : 30,
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
  const side = piece.color === RED ? "red" : piece.color === BLUE ? "blue" : "neutral";
  span.className = `piece ${side}${piece.rank == null ? " hidden" : ""}`;
  if (piece.rank != null) span.title = rankTitle(piece.rank, numbering); // the name on hover
  span.append(pieceSVG(piece, numbering));
  return span;
}

// The legend: every rank's icon, name and number (in the numbering chosen).
export function renderLegend(container, numbering = getNumbering()) {
  container.replaceChildren(
    ...TRAY_ORDER.map((rank) => {
      const item = document.createElement("li");
      const piece = pieceElement({ color: OBSERVER, rank }, numbering);
      piece.classList.add("small");
      const name = document.createElement("span");
      name.textContent = rankTitle(rank, numbering);
      item.append(piece, name);
      return item;
    }),
  );
}
