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

from games.engine import BOMB, FLAG, RED, Variant, validate_setup
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


def walled_in(grid: Grid) -> bool:
    """Whether the flag has a bomb on every side that is on the board (a square in front of
    the setup's front row is open)."""
    for depth, row in enumerate(grid):
        for col, rank in enumerate(row):
            if rank != FLAG:
                continue
            sides = [(depth - 1, col), (depth + 1, col), (depth, col - 1), (depth, col + 1)]
            return all(
                d < 0 or not 0 <= c < len(row) or d < len(grid) and grid[d][c] == BOMB
                for d, c in sides
            )
    return False


# A flag hunter looks first beside the lane it attacks through (an edge or the middle) and
# then among the back row's other columns; the two middle columns of the back row it rarely
# reads as the flag's unless a strong piece gives it away there.
QUIET_COLUMNS = (4, 5)


def quiet_flag(grid: Grid) -> bool:
    """Whether the flag stands on the back row in one of the middle columns."""
    return any(grid[0][col] == FLAG for col in QUIET_COLUMNS)


def human_setup(variant: Variant, color: int, rng: random.Random) -> dict[int, int] | None:
    """One of the people's setups for this variant whose flag is walled in by bombs in the
    middle of the back row (else any walled-in one, else any), mirrored half the time; None
    when we have none for it (or it does not fit the variant's board). A flag with an open
    side falls to any piece that finds it, not only to a Miner."""
    grids = setups(variant.name)
    if not grids or variant.width != 10 or variant.setup_rows != 4:
        return None
    walled = tuple(g for g in grids if walled_in(g))
    grids = tuple(g for g in walled if quiet_flag(g)) or walled or grids
    setup = place(variant, color, rng.choice(grids), rng.random() < 0.5)
    validate_setup(variant, color, setup)
    return setup


__all__ = ["human_setup", "place", "setups"]
