"""`expert`'s suspicions about hidden enemy pieces, on top of the shared beliefs.

Strong programs and players keep their Spy next to their General, where our Marshal comes
to take it, and send the Spy (or their own Marshal, to trade) at our Marshal once they
know it. They also guard what our known big pieces may take: a piece of theirs next to
ours is bait, with a piece beside it that takes whatever takes the bait. The shared
beliefs weigh a piece that walked up to our known Marshal only a little towards the Spy,
and the others not at all; `expert` lost its Marshal to the Spy, and its General to a
hidden Marshal beside a Sergeant it took, that way (docs/bots.md). `adjust` reweighs the
prior rows of `knowledge.build_beliefs` before they are fitted to the counts.
"""

from __future__ import annotations

from games.engine import COLONEL, DEFENDER, GENERAL, IMMOVABLE, MARSHAL, SPY, View, resolve_battle

from .knowledge import Probs, Tracker

SPY_BESIDE_GENERAL = 4.0  # a hidden piece next to their known General: the Spy, this much more
SPY_APPROACH = 4.0  # a piece that walked up to our known Marshal: the Spy, this much more
MARSHAL_APPROACH = 4.0  # ... or their Marshal, come to trade
GUARD = 4.0  # a hidden piece next to one our known Colonel or more may take: a guard
GUARDED = COLONEL  # our known pieces from this rank up are what the guards are for


def adjust(view: View, tracker: Tracker | None, weights: dict[int, Probs]) -> None:
    """Reweigh `weights` (square -> rank -> weight) in place; see the module docstring."""
    enemy = 1 - view.viewer
    neighbors = view.game_variant().neighbors
    for square, piece in enumerate(view.board):
        if piece is None or piece.color != enemy or piece.rank != GENERAL:
            continue
        for near in neighbors[square]:
            row = weights.get(near)
            if row is not None and SPY in row:
                row[SPY] *= SPY_BESIDE_GENERAL
    _guards(view, weights)
    if tracker is None:
        return
    for square, note in tracker.notes.items():
        row = weights.get(square)
        if row is None or note.above != MARSHAL:
            continue
        if SPY in row:
            row[SPY] *= SPY_APPROACH
        if MARSHAL in row:
            row[MARSHAL] *= MARSHAL_APPROACH


def _guards(view: View, weights: dict[int, Probs]) -> None:
    """Each hidden enemy piece next to an enemy piece that our known Colonel or more stands
    next to: the ranks that would take (or trade with) our piece there, GUARD times."""
    enemy, variant = 1 - view.viewer, view.game_variant()
    neighbors, board = variant.neighbors, view.board
    guarded: dict[int, int] = {}  # hidden square -> the weakest of our pieces it may guard against
    for square, piece in enumerate(board):
        if piece is None or piece.color != view.viewer or not piece.revealed:
            continue
        if piece.rank is None or piece.rank in IMMOVABLE or piece.rank < GUARDED:
            continue
        for bait in neighbors[square]:
            target = board[bait]
            if target is None or target.color != enemy:
                continue
            for near in neighbors[bait]:
                if near != square and near in weights:
                    guarded[near] = min(guarded.get(near, piece.rank), piece.rank)
    for square, rank in guarded.items():
        row = weights[square]
        for guard in row:
            if guard not in IMMOVABLE and resolve_battle(guard, rank, variant) != DEFENDER:
                row[guard] *= GUARD


__all__ = ["adjust"]
