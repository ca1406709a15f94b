"""A random player that takes a quarter of a second a move, so a test can act mid-game
(`--player tests.doors.slow_bot:Slow`)."""

from __future__ import annotations

import time

from games.engine import Move, View
from games.engine.player_interface import RandomPlayer


class Slow(RandomPlayer):
    name = "slow"

    def move(self, view: View) -> Move:
        time.sleep(0.25)
        return super().move(view)
