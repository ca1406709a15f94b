"""Where people put each rank: a prior for a hidden enemy piece from the square it started on.

Programs and people do not set up at random. Over the 400 classic setups that people played
on the Gravon server (`human_setups`), mirrored left to right, each setup square has its own
odds of every rank: bombs and the flag on the back rows, the corners and the squares behind
the lakes; scouts and miners behind them; few bombs on the front row. `origin_weights` is
that table for one square.

`MatchedSetups` goes one step further, as a person reading an opponent's setup does: the
ranks the opponent has shown so far, and which of its pieces have moved (so are no bomb and
no flag), make some of the people's setups more like this opponent's than others. Each
setup that contradicts a fact is weighed down (MISMATCH per fact, not to zero: nobody's
setup is exactly one of ours), and the odds of each square are read from the setups so
weighed, half and half with the plain table (BLEND).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from games.engine import BOMB, FLAG, Variant

from . import human_setups

Probs = dict[int, float]

SMOOTHING = 2.0  # pseudo-setups spread over the ranks by the army's counts
MISMATCH = 0.3  # a people's setup that contradicts one fact weighs this much less
BLEND = 0.5  # the share of the matched setups' odds (the rest: the plain table)
RANKS = tuple(range(1, 13))  # every rank code, Spy (1) to Flag (12)


def fits(variant: Variant) -> bool:
    """Whether the people's setups describe this variant's setups: a board 10 wide with 4
    setup rows, the classic army of 40, and no rule that puts the flag on the back row."""
    return (
        variant.width == 10
        and variant.setup_rows == 4
        and not variant.flag_on_back_row
        and sum(variant.army_counts.values()) == 40
        and bool(human_setups.setups(variant.name))
    )


@cache
def _grids(variant_name: str) -> np.ndarray:
    """The people's setups and their mirror images: an array (setups, depth * 10 + column)
    of rank codes, 0 where a cell is empty."""
    rows = []
    for grid in human_setups.setups(variant_name):
        cells = [rank or 0 for row in grid for rank in row]
        mirrored = [rank or 0 for row in grid for rank in reversed(row)]
        rows.append(cells)
        rows.append(mirrored)
    return np.array(rows, dtype=np.int8)


@cache
def _onehot(variant_name: str) -> np.ndarray:
    """(setups, cells, ranks): 1 where a setup holds that rank on that cell."""
    grids = _grids(variant_name)
    return (grids[:, :, None] == np.array(RANKS, dtype=np.int8)[None, None, :]).astype(np.float64)


@cache
def _smoothing(variant: Variant) -> np.ndarray:
    total = sum(variant.army_counts.values())
    return np.array([SMOOTHING * variant.army_counts.get(r, 0) / total for r in RANKS])


def _cell(variant: Variant, color: int, square: int) -> int | None:
    """The index of `square` in a setup grid of `color` (the square's owner), or None
    outside its setup area."""
    if not variant.is_setup_square(color, square):
        return None
    return variant.depth(color, square) * variant.width + square % variant.width


def _table(variant: Variant, counts: np.ndarray) -> np.ndarray:
    """Smoothed odds per cell from (cells, ranks) counts over `total` setups."""
    smoothed = counts + _smoothing(variant)[None, :]
    return smoothed / smoothed.sum(axis=1, keepdims=True)


@cache
def _plain(variant: Variant) -> np.ndarray:
    return _table(variant, _onehot(variant.name).sum(axis=0))


def origin_weights(variant: Variant, color: int, origin: int) -> Probs | None:
    """The people's odds of each rank for the enemy piece that started on `origin`
    (`color` is the viewer's, the piece belongs to the other side); None where the
    people's setups do not fit the variant or the square is outside the setup area."""
    if not fits(variant):
        return None
    cell = _cell(variant, 1 - color, origin)
    if cell is None:
        return None
    return _probs(_plain(variant)[cell])


def _probs(row: np.ndarray) -> Probs:
    return {rank: float(p) for rank, p in zip(RANKS, row, strict=True) if p > 0}


class MatchedSetups:
    """The people's setups weighed by how well they match what one opponent has shown:
    `shown` (setup square -> the rank seen there) and `movers` (setup squares whose piece
    has moved: no bomb and no flag). `color` is the viewer's."""

    def __init__(
        self, variant: Variant, color: int, shown: dict[int, int], movers: set[int]
    ) -> None:
        self.variant = variant
        self.color = color
        self.table: np.ndarray | None = None
        if not fits(variant):
            return
        enemy = 1 - color
        grids = _grids(variant.name)
        weights = np.ones(len(grids))
        for origin, rank in shown.items():
            cell = _cell(variant, enemy, origin)
            if cell is not None:
                weights[grids[:, cell] != rank] *= MISMATCH
        for origin in movers:
            cell = _cell(variant, enemy, origin)
            if cell is not None:
                column = grids[:, cell]
                weights[(column == BOMB) | (column == FLAG)] *= MISMATCH
        matched = np.tensordot(weights / weights.sum(), _onehot(variant.name), axes=1)
        matched = _table(variant, matched * len(grids))
        self.table = BLEND * matched + (1 - BLEND) * _plain(variant)

    def weights(self, origin: int) -> Probs | None:
        """The odds of each rank for the enemy piece that started on `origin`."""
        if self.table is None:
            return None
        cell = _cell(self.variant, 1 - self.color, origin)
        return None if cell is None else _probs(self.table[cell])


__all__ = ["BLEND", "MISMATCH", "MatchedSetups", "fits", "origin_weights"]
