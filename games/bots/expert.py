"""`expert`: `hard`'s beliefs and judgement, checked by search in sampled complete boards.

Each turn it (1) builds `hard`'s beliefs and scores every legal move as `hard` does, (2)
keeps the most promising moves (and every attack) as candidates, (3) samples complete
boards ("worlds") from the beliefs and, in each, searches every candidate with alpha-beta
plus quiescence over captures, deepening while its time budget lasts, and (4) plays the
candidate with the best average material result over the worlds (the enemy Spy's strike at
our Marshal weighed by the beliefs, not the worlds: `spy_strike`), plus `hard`'s positional
terms (progress towards targets, flag guards, leaving probes to cheaper pieces, habits).
See docs/bots.md.
"""

from __future__ import annotations

import os
import random
import statistics

from games.engine import (
    BOMB,
    CAPTAIN,
    DEFENDER,
    FLAG,
    GENERAL,
    IMMOVABLE,
    MARSHAL,
    MINER,
    SPY,
    Game,
    Move,
    View,
    resolve_battle,
)

from . import human_setups, origin_prior, structures, suspicion
from .decoy import decoy_setup
from .hard import CHEAP, HardPlayer, MoveScorer
from .knowledge import Beliefs, build_beliefs
from .search import Clock, Searcher, TimeUp, sample_world
from .spy_strike import SpyStrike

DEFAULT_BUDGET = 1.0  # seconds a move, unless EXPERT_BUDGET or the clock says otherwise
BUDGET_SAFETY = 0.85  # of the budget the search may use (beliefs and setup take the rest)
WORLDS_FIRST = 12  # worlds searched at depth 1 before any deeper pass
MAX_WORLDS = 48
MIN_WORLDS = 4  # a deeper pass counts only once it has searched this many worlds
DEPTH_GROWTH = 10.0  # a world one ply deeper costs about this many times more, at first
MAX_DEPTH = 4
# From depth 3 on, only this many candidates, the best of the pass before, are searched
# deeper: a ply costs about ten times the one before, and most candidates are far behind.
NARROW = 8
CANDIDATES = 10  # quiet moves kept by hard's score; attacks are always searched
UNMASK = 0.12  # worth of learning a hidden piece's rank, per point of its expected value
THREAT = 0.1  # an enemy piece next to ours that beats it this often makes its flight a candidate
CLOCK_SHARE = 40  # a timed game: think at most 1/40th of the time left, plus the increment
BOMB_RISK = 0.05  # a Captain or more attacks no unmoved piece that is a bomb this often ...
FLAG_HOPE = 0.3  # ... unless it is the flag at least this often
# What it costs to show the opponent our hidden Marshal (while its Spy lives) or General by
# attacking with it: a known Marshal is chased by the Spy and by unknown pieces that bluff,
# a known General by the Marshal.
STEALTH = {MARSHAL: 25.0, GENERAL: 12.0}
# Our known Marshal left next to a hidden enemy piece that has moved, while the enemy Spy
# lives: that piece is the Spy at least this often (a program that knows our Marshal
# sends its Spy at it, and chases it with pieces that bluff), whatever the beliefs say.
SPY_WATCH = 0.3
# A flag walled in by bombs falls only to a Miner: near it, an enemy piece's chance of
# being a Miner counts this many times more as a threat to the flag (`MoveScorer`).
MINER_ALARM = 2.0


def default_budget() -> float:
    """Seconds a move: EXPERT_BUDGET from the environment, else DEFAULT_BUDGET."""
    try:
        return max(0.01, float(os.environ.get("EXPERT_BUDGET", DEFAULT_BUDGET)))
    except ValueError:
        return DEFAULT_BUDGET


def default_nodes() -> int | None:
    """Nodes a move: EXPERT_NODES from the environment (a positive integer), else None
    (the time budget decides)."""
    try:
        nodes = int(os.environ.get("EXPERT_NODES", "0"))
    except ValueError:
        return None
    return nodes if nodes > 0 else None


def clock_budget(remaining_ms: int, increment_ms: int, default: float) -> float:
    """Seconds to think in a timed game: a share of the clock plus most of the increment,
    never more than the default and never so much that the clock could run out."""
    share = remaining_ms / 1000 / CLOCK_SHARE + 0.8 * increment_ms / 1000
    return max(0.02, min(default, share, remaining_ms / 1000 / 4))


class ExpertPlayer(HardPlayer):
    name = "expert"
    relative_values = True
    miner_alarm = MINER_ALARM
    people_prior = True  # the enemy's hidden ranks by where people put them (`origin_prior`)

    def __init__(
        self, seed: int | None = None, budget: float | None = None, nodes: int | None = None
    ) -> None:
        super().__init__(seed)
        self.budget = default_budget() if budget is None else budget
        self.default_budget = self.budget  # the server sets `budget` from the clock if timed
        # a node budget replaces the time budget's clock (tournaments: load-independent)
        self.node_budget = default_nodes() if nodes is None else (nodes or None)
        self.stats: dict[str, float] = {}  # of the last move: depth reached, worlds, nodes
        self._standing: list[int] = []  # `structures.structures` of this turn's position

    def setup(self) -> dict[int, int]:
        assert self.variant is not None
        people = human_setups.human_setup(self.variant, self.color, self.rng)
        return people or decoy_setup(self.variant, self.color, self.rng)

    def move(self, view: View) -> Move:
        clock = Clock(self.budget * BUDGET_SAFETY, self.node_budget)
        self.tracker.observe(view)
        self._count_quiet(view)
        moves = [Move(src, dst) for src, dst in view.legal_moves]
        if len(moves) == 1:
            return moves[0]
        scorer = MoveScorer(view, self.beliefs(view), self)
        hard = {m: scorer.score(m) + self._habit(m) for m in moves}
        candidates = self._candidates(moves, hard, scorer)
        self._standing = structures.structures(scorer.position)
        extra = {m: self.positional(m, scorer) + self._habit(m) for m in candidates}
        searched = think(view, scorer, candidates, clock, self.rng, self.stats, extra)
        if searched is None:  # not even one world searched in time: hard's choice
            best = max(moves, key=lambda m: hard[m])
        else:
            best = max(searched, key=lambda m: searched[m] + extra[m] + self.rng.random() * 0.05)
        self.recent.append((best.src, best.dst))
        return best

    def beliefs(self, view: View) -> Beliefs:
        """`hard`'s beliefs, with the flag read from the bomb structures, the suspicions of
        `suspicion` and where people put each rank."""
        return build_beliefs(
            view,
            self.tracker,
            flag_structure=True,
            adjust=suspicion.adjust,
            origin_prior=self._origin_prior(view),
        )

    def _origin_prior(self, view: View):
        """Where people put each rank, matched to what this opponent has shown so far
        (`origin_prior`); None where people's setups do not fit the variant."""
        variant = view.game_variant()
        if not self.people_prior or not origin_prior.fits(variant):
            return None
        tracker = self.tracker
        return origin_prior.MatchedSetups(
            variant, view.viewer, tracker.shown, tracker.movers
        ).weights

    @staticmethod
    def _candidates(moves: list[Move], hard: dict[Move, float], scorer: MoveScorer) -> list[Move]:
        """Every attack; every move of a piece that an enemy piece next to it may beat, and
        every move to a square next to such a piece (covering it); and the CANDIDATES best
        other quiet moves by `hard`'s score. (`hard` judges a threat by what the opponent
        knows: an unknown captain next to a known colonel looks safe to it, so the
        captain's flight was often not searched at all, and the captain was lost.)"""
        owner, enemy = scorer.position.owner, 1 - scorer.position.me
        attacks = [m for m in moves if owner[m.dst] == enemy]
        risky = [m for m in attacks if _bomb_risk(m, scorer)]
        attacks = [m for m in attacks if m not in risky]
        quiet = sorted((m for m in moves if owner[m.dst] != enemy), key=lambda m: -hard[m])
        threatened = _threatened(scorer)
        near = set().union(*(scorer.variant.neighbors[sq] for sq in threatened))
        # its flights, and the moves that cover it (a recapture if the threat strikes)
        urgent = [m for m in quiet if m.src in threatened or m.dst in near]
        others = [m for m in quiet if not (m.src in threatened or m.dst in near)]
        return attacks + urgent + others[:CANDIDATES] or risky

    def positional(self, move: Move, scorer: MoveScorer) -> float:
        """What search by material does not see: `hard`'s terms for plans and information."""
        position = scorer.position
        rank = position.ranks[move.src]
        assert rank is not None
        if position.owner[move.dst] != 1 - position.me:
            return (
                scorer._progress(move, rank, first_strike=True)
                - scorer._leaves_guard(move)
                - spy_exposure(move, scorer)
                - structures.given_away(position, move, self._standing)
            )
        probs = scorer.beliefs.of(move.dst)
        win, _ = scorer._branches(rank, probs)
        value = win * scorer.flag_threat.get(move.dst, 0.0) - stealth(move, scorer)
        if position.ranks[move.dst] is None:
            theirs = scorer.values.theirs
            value += UNMASK * sum(p * theirs[r] for r, p in probs.items() if r in theirs)
        if scorer.values.mine[rank] > CHEAP:
            value -= scorer._cheaper_probe(move, rank)
        cheap = 1.0 if scorer.values.mine[rank] <= CHEAP else 0.25
        return value + self.aggression * cheap - spy_exposure(move, scorer)


def spy_exposure(move: Move, scorer: MoveScorer) -> float:
    """What it costs, beyond what the beliefs already count, to leave our known Marshal
    after `move` next to a hidden enemy piece that has moved while the enemy Spy lives:
    each such piece counts as the Spy at least SPY_WATCH of the time (docs/bots.md)."""
    position = scorer.position
    marshals = [s for s in position.mine() if position.ranks[s] == MARSHAL]
    if not marshals or not scorer.beliefs.enemy_alive(SPY):
        return 0.0
    square = marshals[0]
    if not position.revealed[square]:
        return 0.0  # a hidden Marshal's attack shows it: that is `stealth`'s to count
    if move.src == square:
        square = move.dst
    worst = 0.0
    for near in scorer.variant.neighbors[square]:
        if near == move.dst or position.owner[near] != 1 - position.me:
            continue
        if position.ranks[near] is not None or not position.moved[near]:
            continue
        spy = scorer.beliefs.of(near).get(SPY, 0.0)
        if spy > 0:
            worst = max(worst, SPY_WATCH - spy)
    return worst * scorer.values.mine[MARSHAL]


def stealth(move: Move, scorer: MoveScorer) -> float:
    """What the attack `move` costs by showing a hidden Marshal or General (STEALTH); the
    Marshal's only while the enemy Spy may be alive."""
    position = scorer.position
    rank = position.ranks[move.src]
    if rank not in STEALTH or position.revealed[move.src]:
        return 0.0
    if rank == MARSHAL and not scorer.beliefs.enemy_alive(SPY):
        return 0.0
    return STEALTH[rank]


def _bomb_risk(move: Move, scorer: MoveScorer) -> bool:
    """Whether `move` sends a Captain or more at an unmoved hidden piece that may well be a
    bomb (BOMB_RISK) and is not likely the flag (FLAG_HOPE): the search weighs a flag's
    small chance at the flag's whole worth, and big pieces died on bombs for it."""
    position = scorer.position
    rank = position.ranks[move.src]
    if rank is None or rank < CAPTAIN or rank in IMMOVABLE:
        return False
    if position.ranks[move.dst] is not None or position.moved[move.dst]:
        return False
    probs = scorer.beliefs.of(move.dst)
    return probs.get(BOMB, 0.0) >= BOMB_RISK and probs.get(FLAG, 0.0) < FLAG_HOPE


def _threatened(scorer: MoveScorer) -> set[int]:
    """Our movable pieces next to an enemy piece that beats them with a chance of at
    least THREAT (a draw counts: both pieces go)."""
    position, beliefs, variant = scorer.position, scorer.beliefs, scorer.variant
    enemy = 1 - position.me
    found = set()
    for square in position.mine():
        rank = position.ranks[square]
        if rank is None or rank in IMMOVABLE:
            continue
        for n in variant.neighbors[square]:
            if position.owner[n] != enemy:
                continue
            chance = sum(
                p
                for r, p in beliefs.of(n).items()
                if r not in IMMOVABLE and resolve_battle(r, rank, variant) != DEFENDER
            )
            if chance >= THREAT:
                found.add(square)
                break
    return found


def think(
    view: View,
    scorer: MoveScorer,
    candidates: list[Move],
    clock: Clock,
    rng: random.Random,
    stats: dict[str, float],
    extra: dict[Move, float] | None = None,
) -> dict[Move, float] | None:
    """Average search value of each candidate over sampled worlds. Depth 1 in WORLDS_FIRST
    worlds; then, while the time left is expected to cover one more ply over every world
    so far, the same worlds one ply deeper; otherwise more worlds at the current depth (up
    to MAX_WORLDS, then deeper anyway). From depth 3 on, only the NARROW best candidates
    of the pass before (by its value plus `extra`, the terms search does not see) are
    searched deeper. A deeper pass cut short by the budget counts only if it searched at
    least half as many worlds as the pass before it (and MIN_WORLDS): a few deep worlds
    are noisier than many shallow ones. Returns the values of the deepest counted pass's
    candidates."""
    values = scorer.values
    beliefs = scorer.beliefs
    extra = extra or {}
    suspects = frozenset(
        sq
        for sq, piece in enumerate(view.board)
        if piece and piece.rank is None and beliefs.p(sq, MINER) > 0
    )
    searcher = Searcher(scorer.variant, view.viewer, values.mine, values.theirs, clock, suspects)
    worlds: list[Game] = []
    strike = SpyStrike(scorer)  # the Spy's strike at our Marshal, weighed exactly
    passes: dict[int, list[list[tuple[float, float]]]] = {}
    moves_at: dict[int, list[Move]] = {1: candidates}  # the candidates each depth searches
    cost: dict[int, float] = {}  # what a world took at each depth (the latest), clock units

    def averages(depth: int) -> dict[Move, float]:
        rows = passes[depth]
        return {
            move: statistics.fmean(row[i][0] - row[i][1] for row in rows)
            + expected_battle(searcher, scorer, move)
            + strike.correction(move, len(rows))
            for i, move in enumerate(moves_at[depth])
        }

    def narrowed(depth: int) -> list[Move]:
        """The candidates for depth + 1."""
        if depth + 1 < 3 or not passes.get(depth):
            return moves_at[depth]
        found = averages(depth)
        return sorted(found, key=lambda m: -(found[m] + extra.get(m, 0.0)))[:NARROW]

    depth = 1
    try:
        while True:
            rows = passes.setdefault(depth, [])
            if len(rows) < len(worlds):  # a deeper pass over the worlds already drawn
                world = worlds[len(rows)]
            elif depth > 1 and not worlds:
                break
            elif _deepen(depth, len(worlds), cost, clock, moves_at, narrowed):
                depth += 1
                continue
            elif len(worlds) < MAX_WORLDS:
                world = sample_world(view, scorer.beliefs, rng)
                worlds.append(world)
                strike.watch(world)
            elif depth < MAX_DEPTH:  # worlds enough: what time is left goes deeper
                moves_at[depth + 1] = narrowed(depth)
                depth += 1
                continue
            else:
                break
            started = clock.elapsed()
            rows.append(searcher.root_values(world, moves_at[depth], depth))
            cost[depth] = clock.elapsed() - started
    except TimeUp:
        pass
    depth = _counted_depth(passes)
    stats.update(depth=depth, worlds=len(worlds), nodes=searcher.nodes)
    if not depth:
        return None
    stats["worlds_deepest"] = len(passes[depth])
    return averages(depth)


def _deepen(
    depth: int,
    worlds: int,
    cost: dict[int, float],
    clock: Clock,
    moves_at: dict[int, list[Move]],
    narrowed,  # (depth) -> the candidates for depth + 1
) -> bool:
    """Whether to search one ply deeper now: enough worlds drawn, and the time left covers
    the deeper pass over all of them (a ply costs DEPTH_GROWTH times the one before, for
    as many candidates, until a world has been searched that deep). Sets the deeper
    pass's candidates when it says yes."""
    if depth >= MAX_DEPTH or worlds < WORLDS_FIRST:
        return False
    following = moves_at.get(depth + 1) or narrowed(depth)
    share = len(following) / max(1, len(moves_at[depth]))
    per_world = cost.get(depth + 1, cost.get(depth, 0.0) * DEPTH_GROWTH * share)
    if clock.left() > per_world * worlds:
        moves_at[depth + 1] = following
        return True
    return False


def _counted_depth(passes: dict[int, list[list[tuple[float, float]]]]) -> int:
    """The deepest pass with MIN_WORLDS worlds and at least half the worlds of the pass
    before it (a handful of deep worlds is noisier than many shallow ones)."""
    best = 0
    for depth in sorted(passes):
        rows = len(passes[depth])
        before = len(passes.get(depth - 1, []))
        if rows >= min(MIN_WORLDS, before or 1) and rows * 2 >= before:
            best = depth
    return best


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


__all__ = ["ExpertPlayer", "clock_budget", "default_budget", "default_nodes", "think"]
