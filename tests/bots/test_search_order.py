"""Move ordering changes what the search costs, never what it finds; from depth 3 only
the best candidates of the pass before are searched deeper."""

from __future__ import annotations

import random

from games.bots import ExpertPlayer
from games.bots import expert as expert_module
from games.bots.evaluation import BASE_VALUES
from games.bots.expert import NARROW
from games.bots.knowledge import build_beliefs
from games.bots.search import Clock, Searcher, sample_world
from games.engine import BLUE, RED, Game, Move, generate_setup, get_variant


class Unordered(Searcher):
    """The search without killers and history: captures first, then generation order."""

    def _ordered(self, state, moves, ply):  # type: ignore[no-untyped-def]
        return sorted(moves, key=lambda m: -self._victim(state, m))

    def _remember_cutoff(self, move, turn, ply, depth):  # type: ignore[no-untyped-def]
        pass


def midgame(seed: int, plies: int = 60) -> Game:
    variant, rng = get_variant("classic"), random.Random(seed)
    game = Game.from_setups(
        variant, generate_setup(variant, RED, rng), generate_setup(variant, BLUE, rng)
    )
    while game.ply < plies and not game.is_over:
        game.push(rng.choice(game.legal_moves()))
    return game


def test_killers_and_history_find_the_same_values_for_fewer_nodes() -> None:
    values = dict(BASE_VALUES)
    ordered_nodes = plain_nodes = 0
    for seed in range(3):
        game = midgame(seed)
        view = game.view(game.turn)
        beliefs = build_beliefs(view)
        candidates = [Move(s, d) for s, d in view.legal_moves][:12]
        rng = random.Random(seed)
        for _ in range(2):
            world = sample_world(view, beliefs, rng)
            found = []
            for kind in (Searcher, Unordered):
                searcher = kind(world.variant, view.viewer, values, values, Clock(1e9))
                found.append(searcher.root_values(world, candidates, 3))
                if kind is Searcher:
                    ordered_nodes += searcher.nodes
                else:
                    plain_nodes += searcher.nodes
            assert found[0] == found[1]
    assert ordered_nodes < plain_nodes


def test_depth_three_searches_only_the_best_candidates_of_depth_two(monkeypatch) -> None:
    """With nodes enough for depth 3, the values returned are the NARROW candidates
    that depth 2 (with the terms search does not see) ranked best."""
    seen: dict[int, list[Move]] = {}
    real = Searcher.root_values

    def spy(self, world, candidates, depth):  # type: ignore[no-untyped-def]
        seen.setdefault(depth, list(candidates))
        return real(self, world, candidates, depth)

    monkeypatch.setattr(Searcher, "root_values", spy)
    game = midgame(5, 40)
    bot = ExpertPlayer(1, nodes=60_000)
    bot.start(game.turn, game.variant)
    view = game.view(game.turn)
    bot.move(view)
    assert bot.stats["depth"] >= 3
    assert len(seen[2]) > NARROW
    assert len(seen[3]) == NARROW and set(seen[3]) <= set(seen[2])
    assert expert_module.MAX_DEPTH >= 3
