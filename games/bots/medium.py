"""`medium`: greedy and a little careless.

It uses the same beliefs and battle arithmetic as `hard` (army counts, moved pieces are no
bombs or flags, scouts, battles) but ignores how enemy pieces behave, does not look at the
opponent's reply beyond never walking a piece next to a revealed enemy piece that beats it,
does not dig through bombs towards a walled-in flag, probes unmoved pieces with whatever
piece is next to them, sets up with the engine's plain random generator and adds noise to
its choices.
"""

from __future__ import annotations

from games.engine import ATTACKER, Move, View, generate_setup, resolve_battle

from .hard import HardPlayer, MoveScorer
from .knowledge import build_beliefs


class MediumPlayer(HardPlayer):
    name = "medium"
    reply_weight = 0.0
    use_behaviour = False
    noise = 4.0
    guard_weight = 0.0
    dig = False  # its miners do not plan through bombs
    defer_probes = False  # and it throws big pieces at unmoved ones

    def setup(self) -> dict[int, int]:
        assert self.variant is not None
        return generate_setup(self.variant, self.color, self.rng)

    def move(self, view: View) -> Move:
        self.tracker.observe(view)
        self._count_quiet(view)
        moves = [Move(src, dst) for src, dst in view.legal_moves]
        scorer = MoveScorer(view, build_beliefs(view, None, use_behaviour=False), self)
        scored = [
            (
                scorer.score(m)
                - self._walks_into_danger(view, m)
                + self._habit(m)
                + self.rng.random() * self.noise,
                m,
            )
            for m in moves
        ]
        best = max(scored, key=lambda item: item[0])[1]
        self.recent.append((best.src, best.dst))
        return best

    @staticmethod
    def _walks_into_danger(view: View, move: Move) -> float:
        variant = view.game_variant()
        mover = view.board[move.src]
        if mover is None or mover.rank is None or view.board[move.dst] is not None:
            return 0.0
        for square in variant.neighbors[move.dst]:
            enemy = view.board[square]
            if (
                enemy
                and enemy.color != view.viewer
                and enemy.rank is not None
                and square != move.src
                and resolve_battle(enemy.rank, mover.rank, variant) == ATTACKER
            ):
                return 20.0
        return 0.0


__all__ = ["MediumPlayer"]
