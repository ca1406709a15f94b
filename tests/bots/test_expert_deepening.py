"""When expert searches one ply deeper: as soon as the time left covers the deeper pass
over half the worlds drawn (a pass over half of them counts), not all of them."""

from __future__ import annotations

import copy

from games.bots import ExpertPlayer
from games.bots.expert import DEEPEN_COVER, _counted_depth, _deepen
from games.bots.hard import HardPlayer
from games.bots.search import Clock
from games.engine import Move, View
from games.engine.referee import Referee


def candidates(count: int) -> list[Move]:
    return [Move(square, square + 1) for square in range(count)]


def test_a_deeper_pass_starts_when_the_time_left_covers_half_the_worlds() -> None:
    moves = {2: candidates(8), 3: candidates(8)}
    cost = {2: 10.0, 3: 100.0}  # nodes a world took at each depth
    worlds = 8
    full = cost[3] * worlds  # the deeper pass over every world drawn
    half = Clock(0, nodes=int(full * DEEPEN_COVER) + 1)
    assert DEEPEN_COVER <= 0.5
    assert _deepen(2, worlds, cost, half, dict(moves), lambda depth: moves[depth + 1])
    short = Clock(0, nodes=int(full * DEEPEN_COVER) - 1)
    assert not _deepen(2, worlds, cost, short, dict(moves), lambda depth: moves[depth + 1])


def test_a_pass_over_half_the_worlds_counts() -> None:
    assert _counted_depth({1: [[]] * 8, 2: [[]] * 8, 3: [[]] * 4}) == 3
    assert _counted_depth({1: [[]] * 8, 2: [[]] * 8, 3: [[]] * 3}) == 2


class Sampler(HardPlayer):
    """`hard`, keeping its view and what it has seen on every 20th ply from ply 20."""

    def __init__(self, seed: int, kept: list) -> None:  # type: ignore[type-arg]
        super().__init__(seed)
        self.kept = kept

    def move(self, view: View) -> Move:
        if len(self.kept) == 8:
            raise RuntimeError("positions enough")  # the referee counts it a forfeit
        if view.ply >= 20 and view.ply % 20 < 2:
            self.kept.append((self.color, self.variant, copy.deepcopy(self.tracker), view))
        return super().move(view)


def test_ten_thousand_nodes_reach_depth_three_in_most_positions_of_a_game() -> None:
    """About what 0.2 s a move searches on a quiet core: depth 3 in most positions (it
    drew more shallow worlds and stayed at depth 2 when a deeper pass had to cover
    every world drawn)."""
    kept: list = []  # type: ignore[type-arg]
    Referee("classic", Sampler(1, kept), Sampler(2, kept)).play()  # a forfeit ends it
    reached = []
    for color, variant, tracker, view in kept:
        bot = ExpertPlayer(0, nodes=10_000)
        bot.color, bot.variant, bot.tracker = color, variant, tracker
        bot.move(view)
        reached.append(bot.stats["depth"])
    assert len(reached) == 8
    assert sum(depth >= 3 for depth in reached) >= 5, reached
