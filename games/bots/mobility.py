"""Which of its pieces an opponent moves tells their ranks, if it keeps most of them still.

A strong program (and most people) leaves its Sergeants, Lieutenants, Miners and its Spy
standing and sends its Marshal, General and Colonels about: a hidden piece that has moved is
then likely strong, and one that has not, after a couple of hundred plies, likely weak.
`adjust` weighs each hidden enemy piece's prior by how often such an opponent has moved a
piece of each rank by this ply (`STILL_ARMY_MOVED`, measured on Demon of Ignorance's pieces
by `scripts/opponent_mobility.py`), as far as this opponent moves as few of its pieces as
that: one that moves nearly all of them (as `hard` does) tells nothing by it, and the
weights are left alone.
"""

from __future__ import annotations

from bisect import bisect_right

from games.engine import (
    BOMB,
    CAPTAIN,
    COLONEL,
    FLAG,
    GENERAL,
    IMMOVABLE,
    LIEUTENANT,
    MAJOR,
    MARSHAL,
    MINER,
    SCOUT,
    SERGEANT,
    SPY,
    View,
)

from .knowledge import Probs, Tracker, hidden_counts

# The share of an opponent's hidden pieces of each rank that have moved, before ply 100,
# 250, 500 and after (Demon of Ignorance, 43 games: scripts/opponent_mobility.py).
STILL_ARMY_PLIES = (100, 250, 500)
STILL_ARMY_MOVED: dict[int, tuple[float, float, float, float]] = {
    SPY: (0.01, 0.03, 0.09, 0.08),
    SCOUT: (0.09, 0.15, 0.13, 0.15),
    MINER: (0.04, 0.12, 0.13, 0.12),
    SERGEANT: (0.07, 0.09, 0.06, 0.14),
    LIEUTENANT: (0.08, 0.19, 0.21, 0.24),
    CAPTAIN: (0.09, 0.17, 0.23, 0.22),
    MAJOR: (0.13, 0.22, 0.22, 0.24),
    COLONEL: (0.15, 0.31, 0.29, 0.38),
    GENERAL: (0.09, 0.44, 0.53, 0.37),
    MARSHAL: (0.07, 0.25, 0.53, 0.77),
}
FLOOR = 0.02
# How much of its movable hidden army the opponent has moved: up to STILL this share the
# table holds in full, from LOOSE on not at all (`hard` has moved about 0.7 by ply 250,
# DoI about 0.16).
STILL, LOOSE = 0.25, 0.5


def moved_share(view: View) -> float:
    """The share of the opponent's hidden movable pieces that have moved."""
    enemy = 1 - view.viewer
    counts = hidden_counts(view.game_variant(), view)
    hidden = [p for p in view.board if p and p.color == enemy and p.rank is None]
    movable = len(hidden) - counts.get(BOMB, 0) - counts.get(FLAG, 0)
    if movable <= 0:
        return 1.0
    return sum(1 for p in hidden if p.moved) / movable


def adjust(view: View, tracker: Tracker | None, weights: dict[int, Probs]) -> None:
    """Reweigh `weights` (square -> rank -> prior weight) in place; see the module docstring."""
    share = moved_share(view)
    trust = min(1.0, max(0.0, (LOOSE - share) / (LOOSE - STILL)))
    if trust <= 0.0:
        return
    phase = bisect_right(STILL_ARMY_PLIES, view.ply)
    for square, row in weights.items():
        if len(row) < 2:
            continue
        moved = view.board[square].moved  # type: ignore[union-attr]
        for rank in row:
            if rank in IMMOVABLE:
                continue
            table = STILL_ARMY_MOVED.get(rank)
            p = share if table is None else trust * table[phase] + (1 - trust) * share
            p = min(1 - FLOOR, max(FLOOR, p))
            row[rank] *= p if moved else 1 - p


__all__ = ["STILL_ARMY_MOVED", "adjust", "moved_share"]
