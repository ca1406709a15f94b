"""`expert`: `hard`'s beliefs and judgement, checked by search in sampled complete boards.

Each turn it (1) builds `hard`'s beliefs and scores every legal move as `hard` does, (2)
keeps the most promising moves (and every attack) as candidates, (3) samples complete
boards ("worlds") from the beliefs and, in each, searches every candidate with alpha-beta
plus quiescence over captures, deepening while its time budget lasts, and (4) plays the
candidate with the best average material result over the worlds, plus `hard`'s positional
terms (progress towards targets, flag guards, leaving probes to cheaper pieces, habits).
See docs/bots.md.
"""

from __future__ import annotations

import os
import random
import statistics
import time

from games.engine import Move, View

from .hard import CHEAP, HardPlayer, MoveScorer
from .knowledge import build_beliefs
from .search import Searcher, TimeUp, sample_world

DEFAULT_BUDGET = 1.0  # seconds a move, unless EXPERT_BUDGET or the clock says otherwise
BUDGET_SAFETY = 0.85  # of the budget the search may use (beliefs and setup take the rest)
FIRST_PASS = 0.35  # of the budget spent sampling worlds at depth 1 before deepening
MAX_WORLDS = 24
MIN_WORLDS = 4  # a deeper pass counts only once it has searched this many worlds
MAX_DEPTH = 4
CANDIDATES = 10  # quiet moves kept by hard's score; attacks are always searched
UNMASK = 0.12  # worth of learning a hidden piece's rank, per point of its expected value
CLOCK_SHARE = 40  # a timed game: think at most 1/40th of the time left, plus the increment


def default_budget() -> float:
    """Seconds a move: EXPERT_BUDGET from the environment, else DEFAULT_BUDGET."""
    try:
        return max(0.01, float(os.environ.get("EXPERT_BUDGET", DEFAULT_BUDGET)))
    except ValueError:
        return DEFAULT_BUDGET


def clock_budget(remaining_ms: int, increment_ms: int, default: float) -> float:
    """Seconds to think in a timed game: a share of the clock plus most of the increment,
    never more than the default and never so much that the clock could run out."""
    share = remaining_ms / 1000 / CLOCK_SHARE + 0.8 * increment_ms / 1000
    return max(0.02, min(default, share, remaining_ms / 1000 / 4))


class ExpertPlayer(HardPlayer):
    name = "expert"

    def __init__(self, seed: int | None = None, budget: float | None = None) -> None:
        super().__init__(seed)
        self.budget = default_budget() if budget is None else budget
        self.default_budget = self.budget  # the server sets `budget` from the clock if timed
        self.stats: dict[str, float] = {}  # of the last move: depth reached, worlds, nodes

    def move(self, view: View) -> Move:
        deadline = time.perf_counter() + self.budget * BUDGET_SAFETY
        self.tracker.observe(view)
        self._count_quiet(view)
        moves = [Move(src, dst) for src, dst in view.legal_moves]
        if len(moves) == 1:
            return moves[0]
        scorer = MoveScorer(view, build_beliefs(view, self.tracker), self)
        hard = {m: scorer.score(m) + self._habit(m) for m in moves}
        candidates = self._candidates(moves, hard, scorer)
        searched = think(view, scorer, candidates, deadline, self.rng, self.stats)
        if searched is None:  # not even one world searched in time: hard's choice
            best = max(moves, key=lambda m: hard[m])
        else:
            best = max(
                candidates,
                key=lambda m: (
                    searched[m]
                    + self.positional(m, scorer)
                    + self._habit(m)
                    + self.rng.random() * 0.05
                ),
            )
        self.recent.append((best.src, best.dst))
        return best

    @staticmethod
    def _candidates(moves: list[Move], hard: dict[Move, float], scorer: MoveScorer) -> list[Move]:
        owner, enemy = scorer.position.owner, 1 - scorer.position.me
        attacks = [m for m in moves if owner[m.dst] == enemy]
        quiet = sorted((m for m in moves if owner[m.dst] != enemy), key=lambda m: -hard[m])
        return attacks + quiet[:CANDIDATES]

    def positional(self, move: Move, scorer: MoveScorer) -> float:
        """What search by material does not see: `hard`'s terms for plans and information."""
        position = scorer.position
        rank = position.ranks[move.src]
        assert rank is not None
        if position.owner[move.dst] != 1 - position.me:
            return scorer._progress(move, rank) - scorer._leaves_guard(move)
        probs = scorer.beliefs.of(move.dst)
        win, _ = scorer._branches(rank, probs)
        value = win * scorer.flag_threat.get(move.dst, 0.0)
        if position.ranks[move.dst] is None:
            theirs = scorer.values.theirs
            value += UNMASK * sum(p * theirs[r] for r, p in probs.items() if r in theirs)
        if scorer.values.mine[rank] > CHEAP:
            value -= scorer._cheaper_probe(move, rank)
        cheap = 1.0 if scorer.values.mine[rank] <= CHEAP else 0.25
        return value + self.aggression * cheap


def think(
    view: View,
    scorer: MoveScorer,
    candidates: list[Move],
    deadline: float,
    rng: random.Random,
    stats: dict[str, float],
) -> dict[Move, float] | None:
    """Average search value of each candidate over sampled worlds, by iterative deepening:
    depth 1 in as many worlds as FIRST_PASS of the time allows, then each deeper pass over
    the same worlds until the deadline. The deepest pass with MIN_WORLDS worlds counts."""
    started = time.perf_counter()
    first_pass_end = started + (deadline - started) * FIRST_PASS
    values = scorer.values
    searcher = Searcher(scorer.variant, view.viewer, values.mine, values.theirs, deadline)
    worlds, passes = [], {}
    try:
        while len(worlds) < MAX_WORLDS and (not worlds or time.perf_counter() < first_pass_end):
            world = sample_world(view, scorer.beliefs, rng)
            passes.setdefault(1, []).append(searcher.root_values(world, candidates, 1))
            worlds.append(world)
        for depth in range(2, MAX_DEPTH + 1):
            for world in worlds:
                passes.setdefault(depth, []).append(searcher.root_values(world, candidates, depth))
    except TimeUp:
        pass
    needed = max(1, min(MIN_WORLDS, len(worlds)))
    usable = [d for d, rows in passes.items() if len(rows) >= needed]
    stats.update(depth=max(usable, default=0), worlds=len(worlds), nodes=searcher.nodes)
    if not usable:
        return None
    rows = passes[max(usable)]
    stats["worlds_deepest"] = len(rows)
    return {
        move: statistics.fmean(row[i][0] - row[i][1] for row in rows)
        + expected_battle(searcher, scorer, move)
        for i, move in enumerate(candidates)
    }


def expected_battle(searcher: Searcher, scorer: MoveScorer, move: Move) -> float:
    """What the move's own battle is worth, over the beliefs about the defender: exact,
    where the few sampled worlds would give a noisy average (a flag in 4 worlds of 14)."""
    position = scorer.position
    if position.owner[move.dst] != 1 - position.me:
        return 0.0
    rank = position.ranks[move.src]
    assert rank is not None
    probs = scorer.beliefs.of(move.dst)
    return sum(p * searcher.battle_value(rank, defender) for defender, p in probs.items())


__all__ = ["ExpertPlayer", "clock_budget", "default_budget", "think"]
