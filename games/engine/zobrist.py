"""Zobrist keys: a 63-bit number per (colour, rank, square), XORed into a position hash."""

from __future__ import annotations

import random
from functools import cache

from .pieces import COLORS, RANKS
from .variants import Variant


@cache
def zobrist_table(variant: Variant) -> tuple[dict[int, tuple[int, ...]], ...]:
    rng = random.Random(f"stratego-zobrist-{variant.name}")  # fixed: hashes persist in saved games
    return tuple(
        {rank: tuple(rng.getrandbits(63) for _ in range(variant.size)) for rank in RANKS}
        for _ in COLORS
    )
