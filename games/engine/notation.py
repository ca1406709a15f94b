"""Square and move notation: tournament names (A-K without J, rows 1-10, `:` for 10 in records)."""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

from .errors import NotationError
from .variants import Variant

COLUMN_LETTERS = "ABCDEFGHIK"  # ISF: there is no J
_SQUARE_RE = re.compile(r"^([A-Ka-k])(10|[1-9:])$")


class Move(NamedTuple):
    """A move from one square to another; a Scout's long move is one Move.

    A NamedTuple rather than a frozen dataclass: move generation makes millions of them."""

    src: int
    dst: int

    def as_pair(self) -> list[int]:
        return [self.src, self.dst]


Step = tuple[int, Move]  # a destination square and the Move there


@cache
def move_tables(
    variant: Variant,
) -> tuple[tuple[tuple[tuple[Step, ...], ...], ...], tuple[tuple[Step, ...], ...]]:
    """Per square, its rays (`Variant.rays`) with each square paired with the Move there,
    and the first (destination, Move) of each ray (every move of a piece that is no
    Scout): move generation hands out these Moves (equal to new ones, and immutable)
    instead of making one per generated move."""
    rays = tuple(
        tuple(tuple((dst, Move(src, dst)) for dst in ray) for ray in square_rays)
        for src, square_rays in enumerate(variant.rays)
    )
    return rays, tuple(tuple(ray[0] for ray in square_rays) for square_rays in rays)


def square_name(square: int, variant: Variant, record: bool = False) -> str:
    """`D4` for a square; with record=True row 10 is `:` so every square is two characters."""
    if not variant.is_on_board(square):
        raise NotationError(f"square {square} is off the {variant.width}x{variant.height} board")
    row, col = divmod(square, variant.width)
    row_text = ":" if record and row == 9 else str(row + 1)
    return COLUMN_LETTERS[col] + row_text


def parse_square(text: str, variant: Variant) -> int:
    """The square named by `D4`, `K10` or `K:`.

    `J` is read as the tenth column, as a few sources write it."""
    match = _SQUARE_RE.match(text.strip()) if isinstance(text, str) else None
    if not match:
        raise NotationError(f"{text!r} is not a square name like D4")
    letter, row_text = match.group(1).upper(), match.group(2)
    col = 9 if letter == "J" else COLUMN_LETTERS.index(letter)
    row = 9 if row_text == ":" else int(row_text) - 1
    if col >= variant.width or row >= variant.height:
        raise NotationError(f"{text!r} is off the {variant.width}x{variant.height} board")
    return row * variant.width + col


def parse_move(text: str, variant: Variant) -> Move:
    """`D4-D5` (also `D4 D5`, `D4xD5`) as a Move; only the notation is checked, not legality."""
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a move like D4-D5")
    parts = re.split(r"\s*[-x ]\s*", text.strip())
    if len(parts) != 2:
        raise NotationError(f"{text!r} is not a move like D4-D5")
    return Move(parse_square(parts[0], variant), parse_square(parts[1], variant))


def move_name(move: Move, variant: Variant, record: bool = False) -> str:
    return f"{square_name(move.src, variant, record)}-{square_name(move.dst, variant, record)}"
