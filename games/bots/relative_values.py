"""Piece values that follow the armies left on the board.

A piece is worth what it can still beat. When the other side has no piece of a rank, our
piece of that rank beats exactly what our next lower rank beats, so it is worth as little as
the lowest of them; when a rank is gone from both sides, every higher rank moves one step
down. A Marshal is worth a tenth less while the other side's Spy lives. This is how
Demon of Ignorance (github braathwaate/stratego, `adjustPieceValues`) values pieces; it
makes a trade of equal pieces attractive to the side that would then hold the strongest
piece left.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.engine import MARSHAL, SERGEANT, SPY

SPY_DISCOUNT = 0.9


def relative_values(
    base: Mapping[int, float], own: Mapping[int, int], other: Mapping[int, int]
) -> dict[int, float]:
    """`base` adjusted for one side, given how many of each rank that side (`own`) and the
    other side (`other`) still have."""
    values = dict(base)
    if other.get(SPY, 0):
        values[MARSHAL] *= SPY_DISCOUNT

    def same_as_lower(rank: int) -> float:
        # the lowest worth among our ranks from `rank` + 1 down to the first the other has
        if rank == SPY or other.get(rank, 0):
            return values[rank + 1]
        return min(values[rank + 1], same_as_lower(rank - 1))

    for rank in range(SERGEANT, MARSHAL + 1):  # weakest first
        if other.get(rank, 0):
            continue
        if own.get(rank, 0):
            values[rank] = same_as_lower(rank - 1)
        else:
            for higher in range(MARSHAL, rank, -1):
                values[higher] = values[higher - 1]
    return values


def alive_counts(army: Mapping[int, int], captured: list[int]) -> dict[int, int]:
    """How many of each rank of an army are still on the board."""
    counts = dict(army)
    for rank in captured:
        counts[rank] -= 1
    return counts


__all__ = ["alive_counts", "relative_values"]
