"""The rules of Stratego, in one pure-Python package with no framework and no I/O.

The server, the computer players, the record tools and every client call this package;
nothing else implements a rule. See docs/engine.md and docs/rules.md.
"""

from .battle import ATTACKER, BOTH, DEFENDER, Battle, resolve_battle
from .errors import EngineError, IllegalMoveError, NotationError, SetupError
from .game import FINISHED, PLAYING, SETUP, TERMINATIONS, Game, MoveResult, Outcome
from .notation import Move, move_name, parse_move, parse_square, square_name
from .pieces import (
    BLUE,
    BOMB,
    CAPTAIN,
    CLASSIC_NUMBERS,
    COLONEL,
    COLOR_NAMES,
    COLORS,
    FLAG,
    GENERAL,
    IMMOVABLE,
    LIEUTENANT,
    MAJOR,
    MARSHAL,
    MINER,
    OBSERVER,
    RANK_NAMES,
    RANK_SYMBOLS,
    RANKS,
    RED,
    SCOUT,
    SERGEANT,
    SPY,
    opponent,
    parse_rank,
)
from .setup import generate_setup, validate_setup
from .variants import VARIANTS, Variant, get_variant
from .view import PieceView, View

__all__ = [
    "ATTACKER",
    "BOTH",
    "DEFENDER",
    "Battle",
    "resolve_battle",
    "EngineError",
    "IllegalMoveError",
    "NotationError",
    "SetupError",
    "FINISHED",
    "PLAYING",
    "SETUP",
    "TERMINATIONS",
    "Game",
    "MoveResult",
    "Outcome",
    "Move",
    "move_name",
    "parse_move",
    "parse_square",
    "square_name",
    "BLUE",
    "BOMB",
    "CAPTAIN",
    "CLASSIC_NUMBERS",
    "COLONEL",
    "COLOR_NAMES",
    "COLORS",
    "FLAG",
    "GENERAL",
    "IMMOVABLE",
    "LIEUTENANT",
    "MAJOR",
    "MARSHAL",
    "MINER",
    "OBSERVER",
    "RANK_NAMES",
    "RANK_SYMBOLS",
    "RANKS",
    "RED",
    "SCOUT",
    "SERGEANT",
    "SPY",
    "opponent",
    "parse_rank",
    "generate_setup",
    "validate_setup",
    "VARIANTS",
    "Variant",
    "get_variant",
    "PieceView",
    "View",
]
