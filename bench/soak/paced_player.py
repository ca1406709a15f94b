"""The soak's bots: random legal moves, a second's thought each, as a slow program would
play (`--player bench.soak.paced_player:Paced`)."""

from __future__ import annotations

import time

from games.engine import Move, View
from games.engine.player_interface import RandomPlayer


class Paced(RandomPlayer):
    name = "paced"

    def move(self, view: View) -> Move:
        time.sleep(1.0)
        return super().move(view)
