"""Stored codes as people read them, in the active language (the page's): the variants, the
computer's levels and name, the pieces, the colours. Games and entries store the codes (and a
computer's seat its English name, "Computer (hard)"); pages and messages say them through
here. The game client has the same words (static/ui/words.js)."""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from .. import engine

VARIANT_NAMES = {
    "classic": pgettext_lazy("variant", "classic"),
    "barrage": pgettext_lazy("variant", "barrage"),
    "duel": pgettext_lazy("variant", "duel"),
    "mini": pgettext_lazy("variant", "mini"),
}
LEVEL_NAMES = {
    "random": pgettext_lazy("computer level", "random"),
    "medium": pgettext_lazy("computer level", "medium"),
    "hard": pgettext_lazy("computer level", "hard"),
    "expert": pgettext_lazy("computer level", "expert"),
}
# The engine's ranks (SPY=1 .. MARSHAL=10, BOMB=11, FLAG=12), named as the game client does.
RANK_NAMES = {
    1: gettext_lazy("Spy"), 2: gettext_lazy("Scout"), 3: gettext_lazy("Miner"),
    4: gettext_lazy("Sergeant"), 5: gettext_lazy("Lieutenant"), 6: gettext_lazy("Captain"),
    7: gettext_lazy("Major"), 8: gettext_lazy("Colonel"), 9: gettext_lazy("General"),
    10: gettext_lazy("Marshal"), 11: gettext_lazy("Bomb"), 12: gettext_lazy("Flag"),
}  # fmt: skip
COLOR_NAMES = (gettext_lazy("Red"), gettext_lazy("Blue"))
# A computer's seat or entry is stored under this English name; nicknames have no spaces.
STORED_COMPUTER_NAME = re.compile(r"^Computer \((\w+)\)$")


def variant_name(variant: str) -> str:
    return str(VARIANT_NAMES.get(variant, variant))


def level_name(level: str) -> str:
    return str(LEVEL_NAMES.get(level, level))


def stored_computer_name(level: str) -> str:
    """The name a computer's seat or entry is stored under (the same in every language)."""
    return f"Computer ({level})"


def computer_name(level: str) -> str:
    return gettext("Computer (%(level)s)") % {"level": level_name(level)}


def shown_name(name: str) -> str:
    """A seat's or an entry's stored name as people read it: a computer's in the active
    language, a person's as it is."""
    found = STORED_COMPUTER_NAME.match(name or "")
    return computer_name(found.group(1)) if found and found.group(1) in LEVEL_NAMES else name


def rank_name(rank: int) -> str:
    return str(RANK_NAMES.get(rank, engine.RANK_NAMES.get(rank, "?")))


def color_name(color: int) -> str:
    return str(COLOR_NAMES[color])
