"""Setups that people played, for `expert` to set up as they did.

`data/` holds setups from the Gravon server's public archive (400 classic, 150 barrage),
one per line as 40 letters, the back row first. `expert` sets up its army as one of them,
mirrored at random, rather than around a generated position: people put Scouts where
they can run, Miners where they survive, and the Marshal and General where they can
reach the front.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from games.engine import FLAG, RED, Variant, validate_setup
from games.engine.records import RED_CODE_RANKS

DATA = Path(__file__).resolve().parent / "data"
FILES = {"classic": "gravon-classic-setups.txt", "barrage": "gravon-barrage-setups.txt"}


Grid = tuple[tuple[int | None, ...], ...]  # rows from the back row, ranks or None


@cache
def setups(variant_name: str) -> tuple[Grid, ...]:
    """The people's setups for a variant, as grids (back row first); none if we have none."""
    name = FILES.get(variant_name)
    if name is None:
        return ()
    grids = []
    for line in (DATA / name).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        cells = [RED_CODE_RANKS.get(letter) for letter in line]
        grids.append(tuple(tuple(cells[r * 10 : r * 10 + 10]) for r in range(4)))
    return tuple(grids)


def place(variant: Variant, color: int, grid: Grid, mirror: bool) -> dict[int, int]:
    """A grid as {square: rank} in `color`'s setup area."""
    width = variant.width
    setup = {}
    for depth, row in enumerate(grid):
        for col, rank in enumerate(row):
            if rank is None:
                continue
            column = width - 1 - col if mirror else col
            row_index = depth if color == RED else variant.height - 1 - depth
            setup[row_index * width + column] = rank
    return setup


def away_from_lanes(width: int) -> frozenset[int]:
    """The columns at least two from both edges and from the middle pair: where a flag
    hunter that looks beside the edge and middle lanes its attacks go through looks last
    (DoI guesses the flag within one column of lane 0, 4 or 5, or 9)."""
    lanes = (0, width // 2 - 1, width // 2, width - 1)
    return frozenset(c for c in range(width) if min(abs(c - lane) for lane in lanes) >= 2)


def _flag_column(grid: Grid) -> int | None:
    return next((col for row in grid for col, rank in enumerate(row) if rank == FLAG), None)


def _fits(col: int | None, columns: frozenset[int], last: int) -> bool:
    """Whether a flag in column `col` stands in one of `columns`, mirrored or not."""
    return col is not None and (col in columns or last - col in columns)


def human_setup(
    variant: Variant,
    color: int,
    rng: random.Random,
    flag_columns: frozenset[int] | None = None,
) -> dict[int, int] | None:
    """One of the people's setups for this variant, mirrored half the time; None when we
    have none for it (or it does not fit the variant's board). With `flag_columns`, only
    setups whose flag stands in one of those columns, mirrored or not (all of them if none
    does)."""
    grids = setups(variant.name)
    if not grids or variant.width != 10 or variant.setup_rows != 4:
        return None
    last = variant.width - 1
    if flag_columns is not None:
        fitting = tuple(g for g in grids if _fits(_flag_column(g), flag_columns, last))
        grids = fitting or grids
    grid = rng.choice(grids)
    mirror = rng.random() < 0.5
    col = _flag_column(grid)
    if flag_columns is not None and col is not None:
        # a mirror image that puts the flag in one of the columns, where only one does
        if (col in flag_columns) != (last - col in flag_columns):
            mirror = col not in flag_columns
    setup = place(variant, color, grid, mirror)
    validate_setup(variant, color, setup)
    return setup


__all__ = ["away_from_lanes", "human_setup", "place", "setups"]
