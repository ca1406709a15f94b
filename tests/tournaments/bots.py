"""Players for the tournament tests (`--player tests.tournaments.bots:IllegalOnce`)."""

from __future__ import annotations

from games.engine import Move, View
from games.engine.player_interface import RandomPlayer


class IllegalOnce(RandomPlayer):
    """Plays random legal moves, except its very first move of the process: a piece moved
    onto its own square, which the rules refuse (an irregularity, as the referee of
    games/engine/referee.py calls it)."""

    name = "illegal-once"
    broke_a_rule = False

    def move(self, view: View) -> Move:
        move = super().move(view)
        if not IllegalOnce.broke_a_rule:
            IllegalOnce.broke_a_rule = True
            return Move(move.src, move.src)
        return move
