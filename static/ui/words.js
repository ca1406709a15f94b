// Codes the server sends said in the reader's language: the variants, the computer's levels
// and name, a game's options in the lobby (games/domain/words.py says the same on the pages).

import { gettext as _, pgettext, interpolate as fmt } from "./i18n.js";

export const VARIANT_NAMES = {
  classic: pgettext("variant", "classic"),
  barrage: pgettext("variant", "barrage"),
  duel: pgettext("variant", "duel"),
  mini: pgettext("variant", "mini"),
};

export const LEVEL_NAMES = {
  random: pgettext("computer level", "random"),
  medium: pgettext("computer level", "medium"),
  hard: pgettext("computer level", "hard"),
  expert: pgettext("computer level", "expert"),
};

export function variantName(variant) {
  return VARIANT_NAMES[variant] || variant;
}

// A seat's name: the computer's ({computer: true, level: "hard"}, or a replay's stored
// "Computer (hard)": nicknames have no spaces) in the reader's language, a person's as it is.
export function seatName(seat) {
  if (!seat) return "";
  const level = seat.computer && seat.level ? seat.level : /^Computer \((\w+)\)$/.exec(seat.name || "")?.[1];
  return level && LEVEL_NAMES[level] ? fmt(_("Computer (%(level)s)"), { level: LEVEL_NAMES[level] }) : seat.name;
}

// A lobby row's options, short: "5+3 · two-squares 3 · a drawn army", from the row's
// time_control and rules (the lobby socket's frame holds no words: one frame for every reader).
export function optionsLine(game) {
  const parts = [game.time_control ? game.time_control.id : _("untimed")];
  for (const [name, value] of Object.entries(game.rules || {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (name === "two_squares_limit") parts.push(value ? fmt(_("two-squares %(moves)s"), { moves: value }) : _("no two-squares rule"));
    else if (name === "army") parts.push(_("a drawn army"));
    else parts.push(`${name.replace(/_/g, " ")} ${value}`);
  }
  return parts.join(" · ");
}
