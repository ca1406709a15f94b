"""Colours, ranks and their names: the vocabulary every other module uses."""

from __future__ import annotations

from typing import TypeAlias

from .errors import NotationError

# Plain ints on the wire and in saved games; the aliases say which int a signature means.
Color: TypeAlias = int  # RED or BLUE (OBSERVER for a viewer)
Square: TypeAlias = int  # row * width + col, row 0 being Red's back row
Rank: TypeAlias = int  # SPY (1) .. MARSHAL (10), BOMB, FLAG

RED = 0
BLUE = 1
OBSERVER = 2  # the third role: sees the game, never acts in it
COLORS = (RED, BLUE)
COLOR_NAMES = {RED: "red", BLUE: "blue"}

# Modern (ISF) ranks: a higher number beats a lower one. Bomb and Flag sort above
# the Marshal only so that ranks stay plain ints; battles treat them specially.
SPY = 1
SCOUT = 2
MINER = 3
SERGEANT = 4
LIEUTENANT = 5
CAPTAIN = 6
MAJOR = 7
COLONEL = 8
GENERAL = 9
MARSHAL = 10
BOMB = 11
FLAG = 12
RANKS = (
    SPY,
    SCOUT,
    MINER,
    SERGEANT,
    LIEUTENANT,
    CAPTAIN,
    MAJOR,
    COLONEL,
    GENERAL,
    MARSHAL,
    BOMB,
    FLAG,
)
IMMOVABLE = frozenset({BOMB, FLAG})

RANK_NAMES = {
    SPY: "spy",
    SCOUT: "scout",
    MINER: "miner",
    SERGEANT: "sergeant",
    LIEUTENANT: "lieutenant",
    CAPTAIN: "captain",
    MAJOR: "major",
    COLONEL: "colonel",
    GENERAL: "general",
    MARSHAL: "marshal",
    BOMB: "bomb",
    FLAG: "flag",
}
# One character per rank, for ASCII boards: the modern number, M for the Marshal (10).
RANK_SYMBOLS = {
    SPY: "S",
    SCOUT: "2",
    MINER: "3",
    SERGEANT: "4",
    LIEUTENANT: "5",
    CAPTAIN: "6",
    MAJOR: "7",
    COLONEL: "8",
    GENERAL: "9",
    MARSHAL: "M",
    BOMB: "B",
    FLAG: "F",
}
# The old Milton Bradley numbering, as the Java client and the console game use it: 1 is the
# Marshal, 9 the Scout.
CLASSIC_NUMBERS = {rank: str(11 - rank) for rank in range(SCOUT, MARSHAL + 1)}

_RANK_LOOKUP: dict[str, int] = {}
for _rank in RANKS:
    _RANK_LOOKUP[RANK_NAMES[_rank]] = _rank
    _RANK_LOOKUP[RANK_SYMBOLS[_rank].lower()] = _rank
    _RANK_LOOKUP[str(_rank)] = _rank
_RANK_LOOKUP["10"] = MARSHAL


def parse_rank(text: str | int) -> int:
    """A rank from its number (modern), name or one-character symbol: "9", "general", "M"."""
    if isinstance(text, int) and not isinstance(text, bool):
        if text in RANK_NAMES:
            return text
        raise NotationError(f"unknown rank {text!r}")
    if not isinstance(text, str):
        raise NotationError(f"unknown rank {text!r}")
    try:
        return _RANK_LOOKUP[text.strip().lower()]
    except KeyError:
        raise NotationError(f"unknown rank {text!r}") from None


def opponent(color: Color) -> Color:
    return 1 - color
