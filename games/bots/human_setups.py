"""Setups that people played, and what they say about where each rank stands.

`data/` holds setups from the Gravon server's public archive (400 classic, 150 barrage),
one per line as 40 letters, the back row first. `expert` sets up its army as one of them,
mirrored at random, rather than around a generated position: people put Scouts where
they can run, Miners where they survive, and the Marshal and General where they can
reach the front. The same setups give the odds of each rank on each square of a setup
area (`square_odds`), which `expert`'s beliefs weigh unmoved enemy pieces by.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from games.engine import (
    BOMB,
    CAPTAIN,
    COLONEL,
    FLAG,
    GENERAL,
    LIEUTENANT,
    MAJOR,
    MARSHAL,
    MINER,
    RED,
    SCOUT,
    SERGEANT,
    SPY,
    Variant,
    View,
    validate_setup,
)

DATA = Path(__file__).resolve().parent / "data"
FILES = {"classic": "gravon-classic-setups.txt", "barrage": "gravon-barrage-setups.txt"}
LETTERS = {
    "B": BOMB,
    "C": SPY,
    "D": SCOUT,
    "E": MINER,
    "F": SERGEANT,
    "G": LIEUTENANT,
    "H": CAPTAIN,
    "I": MAJOR,
    "J": COLONEL,
    "K": GENERAL,
    "L": MARSHAL,
    "M": FLAG,
}
ODDS_FLOOR, ODDS_CEILING = 0.25, 4.0  # a few hundred setups: no square rules a rank out


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
        cells = [LETTERS.get(letter) for letter in line]
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


def human_setup(variant: Variant, color: int, rng: random.Random) -> dict[int, int] | None:
    """One of the people's setups for this variant, mirrored half the time; None when we
    have none for it (or it does not fit the variant's board)."""
    grids = setups(variant.name)
    if not grids or variant.width != 10 or variant.setup_rows != 4:
        return None
    setup = place(variant, color, rng.choice(grids), rng.random() < 0.5)
    validate_setup(variant, color, setup)
    return setup


@cache
def square_odds(variant_name: str) -> dict[tuple[int, int], dict[int, float]]:
    """For each (depth, column) of a setup area, how much more often than on an average
    square people put each rank there (mirrored setups counted too, clipped to
    ODDS_FLOOR..ODDS_CEILING, smoothed by one setup's worth of the average)."""
    grids = setups(variant_name)
    if not grids:
        return {}
    counts: dict[tuple[int, int], dict[int, float]] = {}
    totals: dict[int, float] = {}
    for grid in grids:
        for depth, row in enumerate(grid):
            for col, rank in enumerate(row):
                if rank is None:
                    continue
                for column in (col, 9 - col):
                    cell = counts.setdefault((depth, column), {})
                    cell[rank] = cell.get(rank, 0.0) + 1.0
                    totals[rank] = totals.get(rank, 0.0) + 1.0
    grand = sum(totals.values())
    odds = {}
    for key, cell in counts.items():
        filled = sum(cell.values())
        odds[key] = {}
        for rank, total in totals.items():
            expected = filled * total / grand
            ratio = (cell.get(rank, 0.0) + 1.0) / (expected + 1.0)
            odds[key][rank] = min(ODDS_CEILING, max(ODDS_FLOOR, ratio))
    return odds


def weigh_by_setups(view: View, tracker: object, weights: dict[int, dict[int, float]]) -> None:
    """A `build_beliefs` adjustment: the prior weights of every unmoved hidden enemy piece
    times how often people put each rank on its square (`square_odds`). The flag keeps
    its own rules (the back row, the bombs around it)."""
    odds = square_odds(view.variant)
    if not odds:
        return
    variant = view.game_variant()
    enemy = 1 - view.viewer
    for square, row in weights.items():
        piece = view.board[square]
        if piece is None or piece.moved:
            continue
        cell = odds.get((variant.depth(enemy, square), square % variant.width))
        if cell is None:
            continue
        for rank in row:
            if rank != FLAG:
                row[rank] *= cell.get(rank, 1.0)


__all__ = ["human_setup", "place", "setups", "square_odds", "weigh_by_setups"]
