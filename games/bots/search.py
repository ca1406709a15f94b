"""Search for `expert`: complete boards sampled from the beliefs, searched by alpha-beta.

A *world* is one complete board consistent with what the bot's view shows: its own pieces,
the revealed enemy pieces, and a rank drawn for every hidden enemy piece from the belief
model (`knowledge.Beliefs`), so that the ranks drawn match the army still hidden. In a world
everything is known, so the engine can play it out; averaging the search's value of a move
over many worlds weighs each outcome by how likely the bot believes it is (determinization).

Every state operation goes through `worldstate.WorldState` (make/unmake around the
engine's `Game.push`): the rules are the engine's, and switching to an engine push/pop
later changes only that module.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from operator import itemgetter

from games.engine import (
    ATTACKER,
    BOMB,
    BOTH,
    DEFENDER,
    FLAG,
    IMMOVABLE,
    MINER,
    Game,
    Move,
    Variant,
    View,
    resolve_battle,
)

from .hard import bfs
from .knowledge import Beliefs
from .worldstate import WorldState, reveal

INF = float("inf")
WIN = 1000.0  # a won game (no movable piece left to the loser); the flag counts FLAG_VALUE
QUIESCENCE_PLIES = 4
# A gain one ply later is worth this much of the same gain now: without it, a capture made
# now and the same capture two plies later look equal at depth 4, and the bot may wait.
GAIN_DECAY = 0.93  # captures followed after the search's horizon
SAMPLE_TRIES = 20
# GAIN_DECAY ** k for the plies a search reaches (the same floats the power gives)
DECAYS = tuple(GAIN_DECAY**k for k in range(64))
# Our flag in danger beyond the search's sight: an enemy piece that needs `d` more moves to
# take it (through our bombs only if it is a miner; our movable pieces block the way) costs
# FLAG_DANGER * DANGER_DECAY ** (d - 1) at a leaf, up to DANGER_REACH moves away. The
# quiescence search's stand-pat cannot see a miner's two moves, bomb then flag; against
# `hard` every lost game of 20 (seed 2026) ended so, with most of our army alive.
FLAG_DANGER = 600.0
DANGER_DECAY = 0.5
DANGER_REACH = 5
# A hidden enemy piece heading for our bombs is a miner more often than the beliefs say
# (they judge a piece by the pieces it approached; hard's miners dig for the flag): in
# every world it counts at least this share of a miner's danger. Without it, a miner
# believed 5% likely walked up to the flag while our pieces stood by.
SUSPICION = 0.4


class TimeUp(Exception):
    """The search's deadline passed: the depth being searched is abandoned."""


class Clock:
    """The search's sense of time for one move: seconds by `time.perf_counter`, or, with a
    node budget, nodes searched (each `make` is a node). With nodes, the same seed plays
    the same game whatever the machine's load; with seconds, a busy machine searches less.
    `elapsed` and `limit` are in the clock's own unit, seconds or nodes."""

    def __init__(self, seconds: float, nodes: int | None = None) -> None:
        self.node_budget = nodes
        self.limit = float(nodes) if nodes else seconds
        self.started = time.perf_counter()
        self.nodes = 0

    def elapsed(self) -> float:
        if self.node_budget:
            return float(self.nodes)
        return time.perf_counter() - self.started

    def left(self) -> float:
        return self.limit - self.elapsed()

    def tick(self) -> None:
        """One more node; TimeUp once the budget is spent (seconds: checked every 16)."""
        self.nodes += 1
        if self.node_budget:
            if self.nodes > self.node_budget:
                raise TimeUp
        elif self.nodes & 15 == 0 and time.perf_counter() - self.started > self.limit:
            raise TimeUp


class Searcher:
    """Alpha-beta with quiescence over captures, in worlds, valued with the bot's tables.
    `score` is the material won or lost since the root, for the bot (`me`)."""

    def __init__(
        self,
        variant: Variant,
        me: int,
        mine: Mapping[int, float],
        theirs: Mapping[int, float],
        clock: Clock,
        suspects: frozenset[int] = frozenset(),
    ) -> None:
        self.variant = variant
        self.suspects = suspects  # squares of hidden enemy pieces that may be miners
        self.me = me
        self.mine = mine
        self.theirs = theirs
        self.clock = clock
        self.score = 0.0
        self._scores: list[float] = []
        self._zone: dict[int, int] = {}  # squares near our flag in the world searched
        self._ring: list[int] = []
        self._dangers: dict[tuple, float] = {}
        # Move ordering for quiet moves (alpha-beta's value does not depend on it, only its
        # cost): per ply from the root, the last two quiet moves that caused a cutoff there
        # (killers), and per side and move, how much cutting off it has done (history).
        self._killers: list[list[Move]] = []
        self._history: dict[tuple[int, int, int], int] = {}
        # what a battle is worth (`_battle`), by (colour, attacker, defender, result)
        self._gains: dict[tuple[int, int, int, str], float] = {}
        self._ring_key = lambda board: ()

    @property
    def nodes(self) -> int:
        return self.clock.nodes

    # ------------------------------------------------------------- moves
    def make(self, state: WorldState, move: Move) -> None:
        """Play `move` and count the material it won or lost."""
        clock = self.clock
        clock.nodes += 1  # Clock.tick, inlined (a node is a make)
        if clock.node_budget:
            if clock.nodes > clock.node_budget:
                raise TimeUp
        elif clock.nodes & 15 == 0 and time.perf_counter() - clock.started > clock.limit:
            raise TimeUp
        scores = self._scores
        scores.append(self.score)
        result = state.make(move)
        battle = result.battle
        if battle is not None:
            key = (result.color, battle.attacker, battle.defender, battle.result)
            gain = self._gains.get(key)
            if gain is None:
                gain = self._gains[key] = self._battle(*key)
            # GAIN_DECAY ** (plies from the root), 1 for the root move
            n = len(scores) - 1
            self.score += gain * (DECAYS[n] if n < 64 else GAIN_DECAY**n)
        outcome = state.game.outcome
        if outcome is not None and outcome.termination != "flag_captured":
            if outcome.winner is not None:
                n = len(scores) - 1
                decay = DECAYS[n] if n < 64 else GAIN_DECAY**n
                self.score += (WIN if outcome.winner == self.me else -WIN) * decay

    def unmake(self, state: WorldState) -> None:
        state.unmake()
        self.score = self._scores.pop()

    # ------------------------------------------------------------- values
    def _battle(self, color: int, attacker: int, defender: int, result: str) -> float:
        """What a battle is worth to the bot: the values of the pieces it removed."""
        lost = {ATTACKER: [defender], DEFENDER: [attacker], BOTH: [attacker, defender]}[result]
        owners = {ATTACKER: [1 - color], DEFENDER: [color], BOTH: [color, 1 - color]}[result]
        return sum(
            -self.mine[rank] if owner == self.me else self.theirs[rank]
            for rank, owner in zip(lost, owners, strict=True)
        )

    def evaluate(self, state: WorldState) -> float:
        """The material balance for the side to move, less the danger to our flag."""
        value = self.score
        game = state.game
        if self._zone and game.outcome is None:
            value -= self.flag_danger(game)
        return value if game.turn == self.me else -value

    def watch_flag(self, world: Game) -> None:
        """Find our flag in a new world and the squares within DANGER_REACH of it."""
        flags = [u.square for u in world.army[self.me] if u.rank == FLAG]
        self._zone = bfs(self.variant, flags[0], DANGER_REACH) if flags else {}
        # the danger depends only on the pieces in the zone and next to it (guards)
        self._ring = list(bfs(self.variant, flags[0], DANGER_REACH + 1)) if flags else []
        ring = self._ring
        self._ring_key = (  # the pieces on the ring's squares, as a tuple
            itemgetter(*ring) if len(ring) > 1 else lambda board: tuple(board[sq] for sq in ring)
        )
        self._dangers: dict[tuple, float] = {}
        self._suspects = {id(world.board[sq]) for sq in self.suspects if world.board[sq]}

    def flag_danger(self, game: Game) -> float:
        """`_flag_danger`, cached by the pieces around our flag (most moves of a search
        are elsewhere on the board)."""
        key = self._ring_key(game.board)
        danger = self._dangers.get(key)
        if danger is None:
            danger = self._dangers[key] = self._flag_danger(game)
        return danger

    def _flag_danger(self, game: Game) -> float:
        """FLAG_DANGER * DANGER_DECAY ** (d - 1) for the enemy piece nearest (in moves,
        `d`) to taking our flag, 0 if none is within DANGER_REACH; a hidden piece that is
        no miner in this world, but may be one by the beliefs (`suspects`), counts
        SUSPICION of a miner's danger."""
        board, enemy = game.board, 1 - self.me
        near = [
            unit
            for sq in self._zone
            if (unit := board[sq]) is not None
            and unit.color == enemy
            and unit.rank not in IMMOVABLE
        ]
        if not near:
            return 0.0
        miner = self._moves_to_flag(game, True)
        other = self._moves_to_flag(game, False) if any(u.rank != MINER for u in near) else {}
        danger = 0.0
        for unit in near:
            if unit.rank == MINER:
                danger = max(danger, _danger(miner.get(unit.square, 99)))
                continue
            danger = max(danger, _danger(other.get(unit.square, 99)))
            if not unit.revealed and id(unit) in self._suspects:  # it may be a miner
                danger = max(danger, SUSPICION * _danger(miner.get(unit.square, 99)))
        return danger

    def _moves_to_flag(self, game: Game, miner: bool) -> dict[int, int]:
        """How many moves an enemy piece on each square of the zone needs to take our flag:
        it may go over empty squares and its own movable pieces, and over our bombs, spies
        and scouts if it is a miner (taking one is a move); our other movable pieces stand
        in its way, and a
        miner does not get past a square next to one of our pieces that beats it (it
        would be taken there)."""
        board, zone, neighbors = game.board, self._zone, self.variant.neighbors
        start = next(iter(zone))  # the flag: bfs lists its start first
        seen = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for square in frontier:
                d = seen[square] + 1
                for n in neighbors[square]:
                    if n in seen or n not in zone:
                        continue
                    seen[n] = d
                    unit = board[n]
                    passable = (
                        unit is None
                        or unit.color != self.me
                        and unit.rank not in IMMOVABLE
                        or miner
                        and unit.color == self.me
                        and (unit.rank == BOMB or unit.rank < MINER)  # it takes them
                    )
                    if passable and not (miner and self._guarded(board, n)):
                        nxt.append(n)
            frontier = nxt
        return seen

    def _guarded(self, board: list, square: int) -> bool:
        """Whether a piece of ours next to `square` beats a miner that stops there."""
        for n in self.variant.neighbors[square]:
            unit = board[n]
            if unit is not None and unit.color == self.me and MINER < unit.rank < BOMB:
                return True
        return False

    def _victim(self, state: WorldState, move: Move) -> float:
        """Move ordering: the most valuable victim first (captures before quiet moves)."""
        target = state.occupant(move.dst)
        if target is None:
            return 0.0
        color, rank = target
        return (self.mine if color == self.me else self.theirs)[rank]

    # ------------------------------------------------------------- the search
    def _choices(self, state: WorldState, moves: list[Move]) -> list[Move]:
        """Below the root the bot may not use what only the world knows: it attacks no
        piece whose rank it has not seen (its root moves are weighed over all worlds, so
        there a blind attack counts at its expected value). The opponent is searched as if
        it knew the bot's ranks: the cautious side of the same error. (Counting its battles
        against pieces it has not seen at half their worth lost 4 quick games of 4 that
        counting them whole won 3 of, with the same seeds.)"""
        game = state.game
        if game.turn != self.me:
            return moves
        board = game.board  # `WorldState.blind`, inlined
        return [m for m in moves if (t := board[m.dst]) is None or t.revealed]

    def search(self, state: WorldState, depth: int, alpha: float, beta: float) -> float:
        """Negamax alpha-beta: the value of the state for its side to move."""
        game = state.game
        if game.outcome is not None:
            return self.evaluate(state)
        if depth <= 0:
            return self.quiesce(state, alpha, beta, QUIESCENCE_PLIES)
        ply, turn = len(self._scores), game.turn
        moves = self._ordered(state, self._choices(state, game.legal_moves()), ply)
        best = -INF
        make, unmake, search, board = self.make, self.unmake, self.search, game.board
        depth -= 1
        quiesce = self.quiesce if depth <= 0 else None  # what search at depth 0 returns
        for move in moves:
            make(state, move)
            try:
                if quiesce is None:
                    value = -search(state, depth, -beta, -alpha)
                else:
                    value = -quiesce(state, -beta, -alpha, QUIESCENCE_PLIES)
            finally:
                unmake(state)
            if value > best:  # max(best, value)
                best = value
            if best > alpha:
                alpha = best
            if alpha >= beta:
                if board[move.dst] is None:
                    self._remember_cutoff(move, turn, ply, depth + 1)
                break
        return best

    def _ordered(self, state: WorldState, moves: list[Move], ply: int) -> list[Move]:
        """Captures first, most valuable victim first; then the killers of this ply; then
        the other quiet moves by their history of cutoffs."""
        killers = self._killers[ply] if ply < len(self._killers) else ()
        game = state.game
        history, turn, board = self._history, game.turn, game.board
        me, mine, theirs = self.me, self.mine, self.theirs

        def key(move: Move) -> float:
            target = board[move.dst]  # the victim (`_victim`)
            if target is not None:
                victim = (mine if target.color == me else theirs)[target.rank]
                if victim:
                    return -1e6 - victim
            if move in killers:
                return -1e5 + killers.index(move)
            return -history.get((turn, move.src, move.dst), 0)

        return sorted(moves, key=key)

    def _remember_cutoff(self, move: Move, turn: int, ply: int, depth: int) -> None:
        while len(self._killers) <= ply:
            self._killers.append([])
        killers = self._killers[ply]
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        key = (turn, move.src, move.dst)
        self._history[key] = self._history.get(key, 0) + depth * depth

    def quiesce(self, state: WorldState, alpha: float, beta: float, plies: int) -> float:
        """Stand pat, or follow captures (a pending capture is never left unseen)."""
        game = state.game  # stand = self.evaluate(state), inlined:
        stand = self.score
        if game.outcome is not None:
            return stand if game.turn == self.me else -stand
        if self._zone:  # self.flag_danger(game), inlined
            key = self._ring_key(game.board)
            danger = self._dangers.get(key)
            if danger is None:
                danger = self._dangers[key] = self._flag_danger(game)
            stand -= danger
        if game.turn != self.me:
            stand = -stand
        if plies <= 0 or stand >= beta:
            return stand
        if stand > alpha:  # max(alpha, stand)
            alpha = stand
        captures = game.legal_attacks()
        board, me = game.board, self.me
        if game.turn == me:  # `_choices`: every attack has a target; we see the revealed
            captures = [m for m in captures if board[m.dst].revealed]  # type: ignore[union-attr]
        if not captures:
            return alpha
        if len(captures) > 1:
            mine, theirs = self.mine, self.theirs

            def victim(move: Move) -> float:  # -`_victim`: every capture has a victim
                target = board[move.dst]
                return -(mine if target.color == me else theirs)[target.rank]

            captures.sort(key=victim)
        make, unmake, quiesce = self.make, self.unmake, self.quiesce
        plies -= 1
        for move in captures:
            make(state, move)
            try:
                value = -quiesce(state, -beta, -alpha, plies)
            finally:
                unmake(state)
            if value > alpha:
                alpha = value
            if alpha >= beta:
                break
        return alpha

    def root_values(
        self, world: Game, candidates: list[Move], depth: int
    ) -> list[tuple[float, float]]:
        """For each candidate in one world, `depth` plies deep: its value for the bot and
        the part of it that its own battle won or lost (`expert` replaces that part, which
        depends on the rank drawn for the defender, by its expectation over the beliefs)."""
        state = WorldState(world)
        self.watch_flag(world)
        values = []
        for move in candidates:
            self.make(state, move)
            try:
                immediate = self.score
                values.append((-self.search(state, depth - 1, -INF, INF), immediate))
            finally:
                self.unmake(state)
        return values

    def battle_value(self, attacker: int, defender: int) -> float:
        """The bot's piece of rank `attacker` attacks one of rank `defender`: what it is worth."""
        return self._battle(
            self.me, attacker, defender, resolve_battle(attacker, defender, self.variant)
        )


def _danger(moves: int) -> float:
    """The danger to our flag of an enemy piece that needs `moves` moves to take it."""
    return FLAG_DANGER * DANGER_DECAY ** (moves - 1) if moves <= DANGER_REACH else 0.0


# ----------------------------------------------------------------- worlds
def sample_world(view: View, beliefs: Beliefs, rng: random.Random) -> Game:
    """One complete board consistent with the view, hidden ranks drawn from the beliefs."""
    variant = view.game_variant()
    pieces: dict[int, tuple[int, int]] = {}
    hidden: list[int] = []
    for square, piece in enumerate(view.board):
        if piece is None:
            continue
        if piece.rank is None:
            hidden.append(square)
        else:
            pieces[square] = (piece.color, piece.rank)
    enemy = 1 - view.viewer
    drawn = draw_ranks(view, beliefs, hidden, rng)
    for square, rank in drawn.items():
        pieces[square] = (enemy, rank)
    world = Game.from_position(variant, pieces, view.turn)
    reveal(
        world,
        [
            sq
            for sq, p in enumerate(view.board)
            if p and (p.revealed or p.rank is not None and p.color == enemy)
        ],
    )
    return world


def draw_ranks(
    view: View, beliefs: Beliefs, hidden: list[int], rng: random.Random
) -> dict[int, int]:
    """A rank for every hidden square, each from its belief, the counts never exceeded.
    Squares with the fewest possible ranks are drawn first; a dead end starts again, and
    after SAMPLE_TRIES the rest is dealt from what is left (moved pieces never immovable)."""
    order = sorted(hidden, key=lambda sq: len(beliefs.of(sq)))
    for _ in range(SAMPLE_TRIES):
        left = dict(beliefs.hidden_counts)
        drawn: dict[int, int] = {}
        for square in order:
            options = [(r, p) for r, p in beliefs.of(square).items() if p > 0 and left.get(r, 0)]
            if not options:
                break
            rank = _weighted(options, rng)
            drawn[square] = rank
            left[rank] -= 1
        else:
            return drawn
    return _deal(view, beliefs, order, rng)


def _deal(view: View, beliefs: Beliefs, order: list[int], rng: random.Random) -> dict[int, int]:
    pool = [r for r, n in beliefs.hidden_counts.items() for _ in range(n)]
    rng.shuffle(pool)
    movable = [r for r in pool if r not in IMMOVABLE]
    fixed = [r for r in pool if r in IMMOVABLE]
    drawn = {}
    for square in sorted(order, key=lambda sq: not view.board[sq].moved):  # type: ignore[union-attr]
        moved = view.board[square].moved  # type: ignore[union-attr]
        stack = movable if moved or not fixed else fixed if rng.random() < 0.5 else movable
        stack = stack or movable or fixed
        drawn[square] = stack.pop()
    return drawn


def _weighted(options: list[tuple[int, float]], rng: random.Random) -> int:
    total = sum(p for _, p in options)
    pick = rng.random() * total
    for rank, p in options:
        pick -= p
        if pick <= 0:
            return rank
    return options[-1][0]


__all__ = ["Clock", "Searcher", "TimeUp", "draw_ranks", "sample_world"]
