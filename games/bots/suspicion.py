"""`expert`'s suspicions about hidden enemy pieces, on top of the shared beliefs.

Strong programs and players keep their Spy next to their General, where our Marshal comes
to take it, and send the Spy (or their own Marshal, to trade) at our Marshal once they
know it. The shared beliefs weigh a piece that walked up to our known Marshal only a
little towards the Spy, and one beside their General not at all; `expert` lost its
Marshal to the Spy that way (docs/bots.md). `adjust` reweighs the prior rows of
`knowledge.build_beliefs` before they are fitted to the counts.
"""

from __future__ import annotations

from games.engine import GENERAL, MARSHAL, SPY, View

from .knowledge import Probs, Tracker

SPY_BESIDE_GENERAL = 4.0  # a hidden piece next to their known General: the Spy, this much more
SPY_APPROACH = 4.0  # a piece that walked up to our known Marshal: the Spy, this much more
MARSHAL_APPROACH = 4.0  # ... or their Marshal, come to trade


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


__all__ = ["adjust"]
