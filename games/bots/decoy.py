"""`expert`'s setup: the flag walled in by bombs on the back row, and a decoy just like it.

Programs that hunt flags (and people) read the bomb structures of the back row: an
unmoved piece there whose neighbours never moved is a flag candidate, and once only one
such structure is left a Miner goes through it. `expert` lost most of its games against
an outside program that way (docs/bots.md). Here a second structure of bombs, with a bomb
in the middle, stands a few columns away; it never moves either, so the two look the
same until a Miner has paid to open the wrong one.
"""

from __future__ import annotations

import random

from games.engine import BOMB, FLAG, Variant, generate_setup

from .hard import guarded_setup

DECOY_DISTANCE = 3  # columns at least between the flag and the decoy


def decoy_setup(variant: Variant, color: int, rng: random.Random) -> dict[int, int]:
    """The flag and a decoy, each walled in by bombs on the back row, the rest by the
    engine's generator; `hard`'s guarded setup where the bombs are too few for both."""
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
    flag, walls, shape = rng.choice(plans)
    placed = {flag: FLAG} | dict.fromkeys(walls, BOMB) | dict.fromkeys(shape, BOMB)
    return generate_setup(variant, color, rng, placed)


__all__ = ["decoy_setup"]
