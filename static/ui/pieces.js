// Piece names, labels in both numberings, and the SVG drawing of a piece.
// Ranks are the engine's ints: SPY=1 .. MARSHAL=10, BOMB=11, FLAG=12.

import { gettext as _, interpolate as fmt } from "./i18n.js";

export const RED = 0;
export const BLUE = 1;
export const OBSERVER = 2;
export const COLOR_NAMES = [_("Red"), _("Blue")];

export const RANK_NAMES = {
  1: _("Spy"), 2: _("Scout"), 3: _("Miner"), 4: _("Sergeant"), 5: _("Lieutenant"), 6: _("Captain"),
  7: _("Major"), 8: _("Colonel"), 9: _("General"), 10: _("Marshal"), 11: _("Bomb"), 12: _("Flag"),
};

// The tray's order, strongest first: marshal .. lieutenant, then sergeant .. flag.
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
  if (rank == null) return _("unknown piece");
  const label = rankLabel(rank, numbering);
  const name = RANK_NAMES[rank] || "?";
  return /^\d+$/.test(label) ? `${name} (${label})` : name;
}

export function pieceDescription(piece, numbering = getNumbering()) {
  if (!piece) return _("empty");
  const who = COLOR_NAMES[piece.color];
  if (piece.rank == null) {
    const hints = [];
    if (piece.scout) hints.push(_("a scout by its move"));
    else if (piece.moved) hints.push(_("has moved"));
    return fmt(_("%(color)s hidden piece"), { color: who }) + (hints.length ? ` (${hints.join(", ")})` : "");
  }
  return `${who} ${rankTitle(piece.rank, numbering)}`;
}

// What each piece does, in a player's words (the legend, and a tap or hover on a piece).
export const RANK_ROLES = {
  10: _("The strongest: beats every piece, but falls if the Spy attacks it."),
  9: _("Beats every piece but the Marshal."),
  8: _("Beats the Major and every piece below."),
  7: _("Beats the Captain and every piece below."),
  6: _("Beats the Lieutenant and every piece below."),
  5: _("Beats the Sergeant and every piece below."),
  4: _("Beats the Miner, the Scout and the Spy."),
  3: _("The only piece that defuses a Bomb; beats the Scout and the Spy."),
  2: _("Runs any number of free squares in a straight line; beats only the Spy."),
  1: _("Takes the Marshal when it attacks first; every other piece beats it."),
  11: _("Never moves; any attacker but a Miner is blown up with it gone."),
  12: _("Never moves; whoever captures it wins the game."),
};

// One figure per rank, drawn for this project (a 100x100 box, white on the token): the
// officers by their insignia (Sergeant chevrons, bars, then one to four stars), the others by
// their role. The rank's number stays large in the top-left corner, in the numbering chosen.
// Shipped here: no image file, no CDN. fill: shapes; line: strokes.
function star(cx, cy, r) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 ? r * 0.45 : r;
    const angle = (Math.PI / 5) * i - Math.PI / 2;
    points.push(`${(cx + radius * Math.cos(angle)).toFixed(1)} ${(cy + radius * Math.sin(angle)).toFixed(1)}`);
  }
  return `M${points.join(" L")} Z`;
}

const ICONS = {
  // Marshal, General, Colonel, Major: four, three, two, one stars
  10: { fill: [star(60, 54, 11), star(82, 54, 11), star(60, 77, 11), star(82, 77, 11)] },
  9: { fill: [star(71, 52, 12), star(58, 76, 12), star(84, 76, 12)] },
  8: { fill: [star(71, 55, 14), star(71, 80, 14)] },
  7: { fill: [star(70, 68, 20)] },
  // Captain, Lieutenant: two bars, one bar; Sergeant: three chevrons
  6: { fill: ["M52 56 H90 V66 H52 Z", "M52 74 H90 V84 H52 Z"] },
  5: { fill: ["M52 64 H90 V75 H52 Z"] },
  4: { line: ["M52 54 L71 64 L90 54", "M52 67 L71 77 L90 67", "M52 80 L71 90 L90 80"] },
  // Miner: a pickaxe
  3: { line: ["M52 90 L84 52"], fill: ["M62 42 Q84 34 96 58 Q84 48 66 50 Z"] },
  // Scout: a running arrow with speed lines
  2: { line: ["M50 60 H60", "M46 72 H62", "M50 84 H60"], fill: ["M64 54 L92 72 L64 90 Z"] },
  // Spy: a hat over a masked face
  1: {
    fill: ["M50 60 Q71 44 92 60 Z", "M44 62 H98 V66 H44 Z", "M52 72 H90 Q90 82 71 82 Q52 82 52 72 Z"],
    hole: ["M58 76 A3.5 3.5 0 1 0 65 76 A3.5 3.5 0 1 0 58 76 Z", "M77 76 A3.5 3.5 0 1 0 84 76 A3.5 3.5 0 1 0 77 76 Z"],
  },
  // Bomb: a round bomb, its fuse and a spark
  11: {
    fill: ["M46 71 A21 21 0 1 0 88 71 A21 21 0 1 0 46 71 Z", "M72 44 H84 V53 H72 Z"],
    line: ["M78 44 Q80 34 88 32"],
    spark: [star(90, 30, 8)],
  },
  // Flag: a flag on its pole
  12: { line: ["M54 40 V94"], fill: ["M56 41 L94 52 L56 64 Z"] },
};

// A piece whose rank is unknown shows its figure in the middle instead (the scout's guess).
const CENTRED = "translate(-22 -14) scale(1.05)";

const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(name, attrs = {}) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v != null) el.setAttribute(k, v);
  return el;
}

// Red and Blue differ by shape and marker as well as colour:
// Red is a round token with a triangle mark, Blue a square token with a bar mark.
export function pieceSVG(piece, numbering = getNumbering()) {
  const colorName = piece.color === RED ? "red" : piece.color === BLUE ? "blue" : "neutral";
  const svg = svgEl("svg", { viewBox: "0 0 100 100", class: `piece-svg piece-${colorName}`, "aria-hidden": "true" });
  if (piece.color === RED) {
    svg.append(svgEl("circle", { cx: 50, cy: 50, r: 44, class: "token" }));
    svg.append(svgEl("path", { d: "M22 86 L30 73 L38 86 Z", class: "marker" }));
  } else {
    svg.append(svgEl("rect", { x: 7, y: 7, width: 86, height: 86, rx: 10, class: "token" }));
    svg.append(svgEl("rect", { x: 16, y: 78, width: 24, height: 7, class: "marker" }));
  }
  const known = piece.rank != null;
  const label = known ? rankLabel(piece.rank, numbering) : piece.scout ? rankLabel(2, numbering) : "";
  const icon = ICONS[known ? piece.rank : piece.scout ? 2 : 0];
  if (icon) {
    const g = svgEl("g", { class: known ? "icon" : "icon guess" });
    if (!label) g.setAttribute("transform", CENTRED);
    for (const d of icon.fill || []) g.append(svgEl("path", { d, class: "icon-fill" }));
    for (const d of icon.line || []) g.append(svgEl("path", { d, class: "icon-line" }));
    for (const d of icon.hole || []) g.append(svgEl("path", { d, class: "icon-hole" }));
    for (const d of icon.spark || []) g.append(svgEl("path", { d, class: "icon-spark" }));
    svg.append(g);
  }
  if (label) {
    // The number, large in the top-left corner (both numberings): about 15 px on a 35 px
    // square of a phone's board.
    const text = svgEl("text", {
      x: label.length > 1 ? 33 : 30, y: 36, "text-anchor": "middle", "dominant-baseline": "central",
      class: known ? "label" : "label guess",
      "font-size": label.length > 1 ? 44 : 52,
      textLength: label.length > 1 ? 50 : null,
    });
    if (label.length < 2) text.removeAttribute("textLength");
    else text.setAttribute("lengthAdjust", "spacingAndGlyphs");
    text.textContent = label;
    svg.append(text);
  }
  if (!known && piece.moved && !piece.scout) {
    svg.append(svgEl("circle", { cx: 50, cy: 78, r: 6, class: "moved-dot" }));
  }
  return svg;
}

// "Bomb: never moves; ..." for a known piece; what can be seen of a hidden one.
export function pieceInfo(piece, numbering = getNumbering()) {
  if (!piece) return "";
  if (piece.rank == null) return `${pieceDescription(piece, numbering)}: ${_("its rank shows only in a battle.")}`;
  return `${pieceDescription(piece, numbering)}: ${RANK_ROLES[piece.rank] || ""}`;
}

export function pieceElement(piece, numbering = getNumbering()) {
  const span = document.createElement("span");
  const side = piece.color === RED ? "red" : piece.color === BLUE ? "blue" : "neutral";
  span.className = `piece ${side}${piece.rank == null ? " hidden" : ""}`;
  if (piece.rank != null) span.title = `${rankTitle(piece.rank, numbering)}: ${RANK_ROLES[piece.rank] || ""}`; // on hover
  span.append(pieceSVG(piece, numbering));
  return span;
}

// The legend: every rank's figure, name and number (in the numbering chosen), and what it does.
export function renderLegend(container, numbering = getNumbering()) {
  container.replaceChildren(
    ...TRAY_ORDER.map((rank) => {
      const item = document.createElement("li");
      const piece = pieceElement({ color: OBSERVER, rank }, numbering);
      piece.classList.add("small");
      const text = document.createElement("span");
      const name = document.createElement("b");
      name.textContent = rankTitle(rank, numbering);
      const role = document.createElement("span");
      role.className = "role";
      role.textContent = RANK_ROLES[rank];
      text.append(name, " ", role);
      item.append(piece, text);
      return item;
    }),
  );
}
