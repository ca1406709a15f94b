"""`expert`'s setup: the flag walled in by bombs on the back row, and a decoy just like it.

Programs that hunt flags (and people) read the bomb structures of the back row: an
unmoved piece there whose neighbours never moved is a flag candidate, and once only one
such structure is left a Miner goes through it. `expert` lost most of its games against
an outside program that way (docs/bots.md). Here a second structure of bombs, with a bomb
in the middle, stands a few columns away; it never moves either, so the two look the
same until a Miner has paid to open the wrong one.

Where they stand matters too. Such a hunter first looks for the flag beside the lane it
attacks through: the edges and the middle of the board. So the flag stands in the third
column from an edge (two columns from the corner, away from the middle), and the decoy
in the far corner, where a hunter coming down an edge lane finds it first.
"""

from __future__ import annotations

import random

from games.engine import BOMB, FLAG, Variant, generate_setup

from .hard import guarded_setup

DECOY_DISTANCE = 3  # columns at least between the flag and the decoy
FLAG_EDGE_DISTANCE = 2  # the flag's column: this many columns in from an edge, if it can


def decoy_setup(variant: Variant, color: int, rng: random.Random) -> dict[int, int]:
    """The flag and a decoy, each walled in by bombs on the back row, the rest by the
    engine's generator; `hard`'s guarded setup where the bombs are too few for both.
    Where the bombs allow it, the flag stands FLAG_EDGE_DISTANCE columns in from an edge
    and the decoy in the far corner (see the module docstring)."""
    back = [sq for sq in variant.setup_squares(color) if variant.is_back_row(color, sq)]
    bombs = variant.army_counts.get(BOMB, 0)
    plans = []
    for flag in back:
        walls = variant.neighbors[flag]
        if len(walls) > bombs:
            continue
        for decoy in back:
            taken = {flag, *walls}
            shape = {decoy, *variant.neighbors[decoy]}
            if (
                abs(decoy - flag) >= DECOY_DISTANCE
                and not shape & taken
                and len(walls) + len(shape) <= bombs
            ):
                plans.append((flag, walls, shape))
    if not plans:
        return guarded_setup(variant, color, rng)
    preferred = [plan for plan in plans if _away_from_lanes(variant, plan[0], plan[2])]
    flag, walls, shape = rng.choice(preferred or plans)
    placed = {flag: FLAG} | dict.fromkeys(walls, BOMB) | dict.fromkeys(shape, BOMB)
    return generate_setup(variant, color, rng, placed)


def _away_from_lanes(variant: Variant, flag: int, shape: set[int]) -> bool:
    """The flag FLAG_EDGE_DISTANCE columns in from an edge, the decoy in the far corner."""
    width = variant.width
    column = flag % width
    if column not in (FLAG_EDGE_DISTANCE, width - 1 - FLAG_EDGE_DISTANCE):
        return False
    corner = width - 1 if column < width // 2 else 0
    return any(square % width == corner for square in shape) and len(shape) == 3


__all__ = ["decoy_setup"]
