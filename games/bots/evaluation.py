"""The bots' arithmetic: piece values, expected battle results and the danger a position is in.

All of it works on a `Position`: the bot's own pieces with their ranks, the enemy pieces
with the rank probabilities of `Beliefs`, nothing else. A move is scored as what it is
expected to win now, minus what the opponent's best reply is expected to take, plus how
much closer the moving piece gets to something it can profitably attack.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from dataclasses import dataclass

from games.engine import (
    ATTACKER,
    BOMB,
    BOTH,
    COLONEL,
    FLAG,
    GENERAL,
    IMMOVABLE,
    LIEUTENANT,
    MAJOR,
    MARSHAL,
    MINER,
    SCOUT,
    SERGEANT,
    SPY,
    Variant,
    View,
    resolve_battle,
)
from games.engine.pieces import CAPTAIN

from .knowledge import Beliefs, Probs
from .relative_values import alive_counts, relative_values

FLAG_VALUE = 1000.0
BASE_VALUES = {
    SPY: 25.0,
    SCOUT: 5.0,
    MINER: 12.0,
    SERGEANT: 7.0,
    LIEUTENANT: 11.0,
    CAPTAIN: 18.0,
    MAJOR: 30.0,
    COLONEL: 48.0,
    GENERAL: 75.0,
    MARSHAL: 110.0,
    BOMB: 8.0,
    FLAG: FLAG_VALUE,
}
EMPTY = -1
LAST_MOVERS = 5
LAST_MOVER_BONUS = 120.0


@dataclass
class Position:
    """The board as one side knows it. `ranks[sq]` is None for a hidden enemy piece."""

    variant: Variant
    me: int
    owner: list[int]  # RED, BLUE or EMPTY per square
    ranks: list[int | None]
    revealed: list[bool]  # whether the opponent knows the rank of our piece there
    moved: list[bool]

    @classmethod
    def from_view(cls, view: View) -> Position:
        variant = view.game_variant()
        owner = [EMPTY if p is None else p.color for p in view.board]
        ranks = [None if p is None else p.rank for p in view.board]
        revealed = [bool(p and p.revealed) for p in view.board]
        moved = [bool(p and p.moved) for p in view.board]
        return cls(variant, view.viewer, owner, ranks, revealed, moved)

    def copy(self) -> Position:
        return Position(
            self.variant, self.me, self.owner[:], self.ranks[:], self.revealed[:], self.moved[:]
        )

    def mine(self) -> list[int]:
        return [sq for sq, o in enumerate(self.owner) if o == self.me]

    def enemies(self) -> list[int]:
        return [sq for sq, o in enumerate(self.owner) if o == 1 - self.me]

    def relocate(self, src: int, dst: int, revealed: bool) -> None:
        self.owner[dst], self.ranks[dst] = self.owner[src], self.ranks[src]
        self.revealed[dst], self.moved[dst] = revealed, True
        self.clear(src)

    def clear(self, square: int) -> None:
        self.owner[square], self.ranks[square] = EMPTY, None
        self.revealed[square] = self.moved[square] = False


class Values:
    """What each rank is worth to each side in this game, given what is still alive."""

    def __init__(
        self, variant: Variant, view: View, beliefs: Beliefs, relative: bool = False
    ) -> None:
        me, enemy = view.viewer, 1 - view.viewer
        mine_base = theirs_base = BASE_VALUES
        if relative:  # what each rank can still beat (`relative_values`)
            own = alive_counts(variant.army_counts, view.captured[me])
            other = alive_counts(variant.army_counts, view.captured[enemy])
            mine_base = relative_values(BASE_VALUES, own, other)
            theirs_base = relative_values(BASE_VALUES, other, own)
        own_ranks = [p.rank for p in view.board if p and p.color == me]
        enemy_bombs = beliefs.hidden_counts.get(BOMB, 0) + sum(
            1 for p in view.board if p and p.color == enemy and p.rank == BOMB
        )
        enemy_marshal = any(beliefs.p(sq, r) > 0 for sq in beliefs.probs for r in variant.spy_beats)
        own_movers = sum(1 for r in own_ranks if r not in IMMOVABLE)
        self.mine = self._table(
            mine_base, own_ranks.count(MINER), enemy_bombs > 0, enemy_marshal, own_movers
        )
        enemy_miners = sum(p.get(MINER, 0.0) for p in beliefs.probs.values())
        enemy_movers = round(sum(beliefs.can_move(sq) for sq in beliefs.probs))
        own_marshal = any(r in variant.spy_beats for r in own_ranks)
        self.theirs = self._table(
            theirs_base, round(enemy_miners), BOMB in own_ranks, own_marshal, enemy_movers
        )

    @staticmethod
    def _table(
        base: Mapping[int, float],
        miners: int,
        bombs_to_clear: bool,
        spy_has_target: bool,
        movers: int,
    ) -> dict[int, float]:
        table = dict(base)
        if bombs_to_clear:
            table[MINER] += 18.0 / max(1, miners)
        if not spy_has_target:
            table[SPY] = 2.0
        if movers <= LAST_MOVERS:  # losing the last movable pieces loses the game
            for rank in table:
                if rank not in IMMOVABLE:
                    table[rank] += LAST_MOVER_BONUS / max(1, movers)
        return table


def attack_value(rank: int, probs: Probs, values: Values, variant: Variant, hidden: bool) -> float:
    """Expected gain of our piece of `rank` attacking an enemy piece with these probabilities."""
    mine, theirs = values.mine[rank], values.theirs
    gain = 0.0
    for enemy_rank, p in probs.items():
        if enemy_rank == FLAG:
            gain += p * FLAG_VALUE
            continue
        result = resolve_battle(rank, enemy_rank, variant)
        if result == ATTACKER:
            gain += p * theirs[enemy_rank]
        elif result == BOTH:
            gain += p * (theirs[enemy_rank] - mine)
        else:
            gain -= p * mine
    if hidden:  # learning a rank is worth something, the more so the bigger the piece may be
        gain += 0.12 * sum(p * theirs[r] for r, p in probs.items() if r != FLAG)
    return gain


def threat_value(probs: Probs, rank: int, values: Values, variant: Variant, known: float) -> float:
    """Expected gain of the opponent attacking our piece of `rank` with a piece of these
    probabilities, if it attacks only when that is good for it. `known` discounts an attack
    made without knowing our rank."""
    target = FLAG_VALUE if rank == FLAG else values.mine[rank]
    gain = 0.0
    for enemy_rank, p in probs.items():
        if enemy_rank in IMMOVABLE or p == 0.0:
            continue
        result = resolve_battle(enemy_rank, rank, variant)
        if result == ATTACKER:
            gain += p * target
        elif result == BOTH:
            gain += p * max(0.0, target - values.theirs[enemy_rank])
    return gain * known


def knowledge_factor(position: Position, square: int) -> float:
    if position.revealed[square]:
        return 1.0
    return 0.55 if position.moved[square] else 0.4


class Danger:
    """The opponent's best expected capture in a position (its best reply)."""

    def __init__(self, beliefs: Beliefs, values: Values) -> None:
        self.beliefs = beliefs
        self.values = values
        self.variant = beliefs.variant
        self._cache: dict[tuple[int, int, float], float] = {}

    def pair(self, enemy_square: int, probs: Probs, rank: int, known: float) -> float:
        key = (enemy_square, rank, known)
        if key not in self._cache:
            self._cache[key] = threat_value(probs, rank, self.values, self.variant, known)
        return self._cache[key]

    def best_reply(self, position: Position, probs_at: dict[int, Probs]) -> float:
        """`probs_at[sq]` gives the rank probabilities of the enemy piece now on `sq`."""
        owner, ranks, me = position.owner, position.ranks, position.me
        best = 0.0
        for square, probs in probs_at.items():
            if owner[square] != 1 - me:
                continue
            for ray in self.variant.rays[square]:
                target = ray[0]
                if owner[target] == me:
                    best = max(
                        best,
                        self.pair(square, probs, ranks[target], knowledge_factor(position, target)),
                    )
                    continue
                if owner[target] != EMPTY or probs.get(SCOUT, 0.0) == 0.0:
                    continue
                best = max(best, self._scout_line(position, square, probs, ray))
        return best

    def _scout_line(
        self, position: Position, square: int, probs: Probs, ray: tuple[int, ...]
    ) -> float:
        for target in ray[1:]:
            if position.owner[target] == EMPTY:
                continue
            if position.owner[target] != position.me:
                return 0.0
            rank = position.ranks[target]
            scout_only = {SCOUT: probs[SCOUT]}
            return self.pair(-1 - square, scout_only, rank, knowledge_factor(position, target))
        return 0.0


def distances_from(
    variant: Variant,
    position: Position,
    start: int,
    limit: float = 12,
    through: Mapping[int, float] | None = None,
) -> dict[int, float]:
    """Path lengths from `start` (an enemy piece) to the squares around it, up to `limit`:
    a step costs 1 over an empty square or one of our movable pieces (it can step aside);
    another enemy piece blocks, unless `through` gives the cost of going through it (it
    must be beaten first: a flag behind bombs is still a target for a miner). That cost is
    counted beyond the piece: standing on its square, once it is beaten, is one step from
    the next. Our bombs and flag block."""
    owner, ranks, me = position.owner, position.ranks, position.me
    through = through or {}
    best: dict[int, float] = {start: 0}
    heap: list[tuple[float, int]] = [(0, start)]
    while heap:
        cost, square = heapq.heappop(heap)
        if cost > best[square] or cost >= limit:
            continue
        step = through[square] if square != start and owner[square] == 1 - me else 1
        for nxt in variant.neighbors[square]:
            if (owner[nxt] == me and ranks[nxt] in IMMOVABLE) or (
                owner[nxt] == 1 - me and nxt not in through
            ):
                continue
            if cost + step < best.get(nxt, limit + 1):
                best[nxt] = cost + step
                heapq.heappush(heap, (cost + step, nxt))
    return best


__all__ = [
    "BASE_VALUES",
    "Danger",
    "FLAG_VALUE",
    "Position",
    "Values",
    "attack_value",
    "distances_from",
    "threat_value",
]
