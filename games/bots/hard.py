"""`hard`: reasons about hidden pieces and looks at the opponent's best reply.

Each turn it (1) rebuilds its beliefs about every enemy piece from the view (army counts,
moves, battles, how each piece behaved), (2) values each legal move as the expected gain of
the move itself (a battle is weighed over the defender's possible ranks; an unmoved piece
that a cheaper piece of ours could probe soon is left to it), minus the
expected loss to the opponent's best capture afterwards (flag included), plus progress of
the moving piece towards the enemy pieces it can attack with profit (a miner towards likely
bombs, and through them towards a flag they wall in, a scout towards unknown pieces it can
unmask, a strong piece towards weaker ones), and (3) plays the best, with small penalties
against shuffling back and forth and more appetite for battles when nothing has happened
for a long time.
"""

from __future__ import annotations

import random
from collections import deque

from games.engine import (
    ATTACKER,
    BOMB,
    BOTH,
    CAPTAIN,
    FLAG,
    IMMOVABLE,
    LIEUTENANT,
    MAJOR,
    MINER,
    SCOUT,
    SERGEANT,
    SPY,
    Move,
    Variant,
    View,
    generate_setup,
    resolve_battle,
)
from games.engine.player_interface import Player

from .evaluation import Danger, Position, Values, attack_value, distances_from
from .knowledge import Beliefs, Probs, Tracker, build_beliefs

CHEAP = 20.0  # pieces worth at most this probe unknown pieces when the game stalls
FLAG_GUARD = 60.0  # worth of taking an enemy piece next to our flag (halved per step away)
FLAG_WATCH = 6  # how far from our flag enemy pieces count as a threat
GUARD_RANKS = frozenset({SERGEANT, LIEUTENANT, CAPTAIN, MAJOR})  # small armies: see _guards
TARGET_REACH = 30  # path length beyond which a target is out of sight
DIG_COST = 2.0  # extra path cost of clearing an enemy piece in a miner's way, per chance of it
DIG_CHANCE = 0.1  # a piece the miner beats with less chance than this blocks its way
PROBE_REACH = 15  # a cheaper piece this many steps away can make a probe instead
PROBE_PATIENCE = 0.98  # what a probe made one step later is still worth (bombs stay put)
GUARD_RADIUS = 2  # guards stay this close to the flag
GUARD_PENALTY = 8.0


Target = tuple[float, dict[int, float], int]  # value, path lengths to it, its square


class HardPlayer(Player):
    name = "hard"
    reply_weight = 0.9  # how much of the opponent's best expected capture we count
    progress_weight = 1.0
    use_behaviour = True
    guard_weight = 1.0
    miner_alarm = 0.0  # a walled-in flag: enemy Miners near it threaten it this much more
    relative_values = False  # piece values that follow the armies left (`relative_values`)
    dig = True  # miners plan through bombs towards a target walled in by them
    defer_probes = True  # big pieces leave probes of unmoved pieces to cheaper ones nearby

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self.rng = random.Random(seed)
        self.tracker = Tracker()
        self.recent: deque[tuple[int, int]] = deque(maxlen=16)
        self.captures_seen = 0
        self.quiet_turns = 0

    # ------------------------------------------------------------------ setup
    def setup(self) -> dict[int, int]:
        assert self.variant is not None
        return guarded_setup(self.variant, self.color, self.rng)

    # ------------------------------------------------------------------ moves
    def move(self, view: View) -> Move:
        self.tracker.observe(view)
        self._count_quiet(view)
        moves = [Move(src, dst) for src, dst in view.legal_moves]
        if len(moves) == 1:
            return moves[0]
        scorer = MoveScorer(view, self.beliefs(view), self)
        scored = [(scorer.score(m) + self._habit(m) + self.rng.random() * 0.05, m) for m in moves]
        best = max(scored, key=lambda item: item[0])[1]
        self.recent.append((best.src, best.dst))
        return best

    def beliefs(self, view: View) -> Beliefs:
        """The chances of each hidden enemy piece's rank, from what `tracker` has watched."""
        return build_beliefs(view, self.tracker, self.use_behaviour)

    def _count_quiet(self, view: View) -> None:
        captures = len(view.captured[0]) + len(view.captured[1])
        self.quiet_turns = 0 if captures != self.captures_seen else self.quiet_turns + 1
        self.captures_seen = captures

    def _habit(self, move: Move) -> float:
        """Penalties against undoing the last move and repeating recent ones."""
        penalty = 0.0
        if self.recent and self.recent[-1] == (move.dst, move.src):
            penalty += 1.5
        penalty += 0.6 * sum(1 for m in self.recent if m == (move.src, move.dst))
        return -penalty

    @property
    def aggression(self) -> float:
        """More appetite for battles after a long quiet spell (a draw comes after 200 each)."""
        return max(0.0, (self.quiet_turns - 25) / 10.0)


class MoveScorer:
    """Scores moves of one turn; shares the per-turn work (beliefs, values, targets)."""

    def __init__(self, view: View, beliefs: Beliefs, bot: HardPlayer) -> None:
        self.view = view
        self.variant = view.game_variant()
        self.beliefs = beliefs
        self.bot = bot
        self.position = Position.from_view(view)
        self.values = Values(self.variant, view, beliefs, bot.relative_values)
        self.danger = Danger(beliefs, self.values)
        self.probs_at: dict[int, Probs] = dict(beliefs.probs)
        self.baseline = self.danger.best_reply(self.position, self.probs_at)
        self._targets: dict[int, list[Target]] = {}
        self._distance_maps: dict[tuple[int, bool], dict[int, float]] = {}
        self._gains: dict[tuple[int, int], float] = {}
        self._dig: dict[int, float] | None = None
        flags = [sq for sq in self.position.mine() if self.position.ranks[sq] == FLAG]
        self.flag_distance = bfs(self.variant, flags[0], FLAG_WATCH) if flags else {}
        self.flag_threat = self._flag_threats()
        self.guard_ranks = guard_ranks(self.variant)
        self.guards = self._guards()

    def score(self, move: Move) -> float:
        position = self.position
        rank = position.ranks[move.src]
        assert rank is not None
        if position.owner[move.dst] == 1 - position.me:
            cheap = 1.0 if self.values.mine[rank] <= CHEAP else 0.25
            return self._attack(move, rank) + self.bot.aggression * cheap
        after = position.copy()
        after.relocate(
            move.src, move.dst, position.revealed[move.src] or self._shows_scout(move, rank)
        )
        reply = self.danger.best_reply(after, self.probs_at)
        return (
            (self.baseline - reply) * self.bot.reply_weight
            + self._progress(move, rank)
            - self._leaves_guard(move)
        )

    def _leaves_guard(self, move: Move) -> float:
        """A guard that wanders off from our flag costs GUARD_PENALTY."""
        distances = self.flag_distance
        if move.src not in self.guards or distances.get(move.dst, 99) <= GUARD_RADIUS:
            return 0.0
        return GUARD_PENALTY * self.bot.guard_weight

    def _guards(self) -> set[int]:
        """The squares of the (up to) two middle-ranked pieces closest to our flag."""
        position, distances = self.position, self.flag_distance
        candidates = [
            (distances[sq], sq)
            for sq in position.mine()
            if position.ranks[sq] in self.guard_ranks and sq in distances
        ]
        return {sq for _, sq in sorted(candidates)[:2]}

    def _shows_scout(self, move: Move, rank: int) -> bool:
        return rank == SCOUT and move.dst not in self.variant.neighbors[move.src]

    def _attack(self, move: Move, rank: int) -> float:
        probs = self.beliefs.of(move.dst)
        gain = self._gain(rank, move.dst)
        if probs.get(FLAG, 0.0) >= 0.999:
            return gain
        win, lose = self._branches(rank, probs)
        gain += win * self.flag_threat.get(move.dst, 0.0)
        gain += win * self._progress(move, rank, taken=move.dst)  # a miner digging on
        if self.bot.defer_probes and self.values.mine[rank] > CHEAP:
            gain -= self._cheaper_probe(move, rank)
        reply = 0.0
        if win > 0:
            after = self.position.copy()
            after.clear(move.dst)
            after.relocate(move.src, move.dst, True)
            reply += win * self.danger.best_reply(after, self.probs_at)
        if lose > 0:
            after = self.position.copy()
            after.clear(move.src)
            reply += lose * self.danger.best_reply(after, self.probs_at)
        return gain + (self.baseline - reply) * self.bot.reply_weight

    def _gain(self, rank: int, square: int) -> float:
        """attack_value of our piece of `rank` on the enemy piece on `square` (cached)."""
        key = (rank, square)
        if key not in self._gains:
            hidden = self.position.ranks[square] is None
            probs = self.beliefs.of(square)
            self._gains[key] = attack_value(rank, probs, self.values, self.variant, hidden)
        return self._gains[key]

    def _cheaper_probe(self, move: Move, rank: int) -> float:
        """What a cheaper piece of ours could gain by attacking the same unmoved piece a few
        steps later. A bomb or flag does not run away, so a big piece that probes it gains
        only what it adds over that probe (a marshal hitting a likely bomb for the chance
        of a flag is worse than a miner or scout doing it)."""
        position, target = self.position, move.dst
        if self.beliefs.can_move(target) >= 0.999:  # it may walk away: no waiting for it
            return 0.0
        distances = self._distances(target, False)
        best = 0.0
        for square in position.mine():
            other = position.ranks[square]
            if (
                square == move.src
                or other is None
                or other in IMMOVABLE
                or self.values.mine[other] >= self.values.mine[rank]
                or square not in distances
            ):
                continue
            steps = distances[square] - 1  # to stand next to it
            if steps > PROBE_REACH:
                continue
            best = max(best, self._gain(other, target) * PROBE_PATIENCE**steps)
        return best

    def _branches(self, rank: int, probs: Probs) -> tuple[float, float]:
        win = lose = 0.0
        for enemy_rank, p in probs.items():
            result = resolve_battle(rank, enemy_rank, self.variant)
            if result == ATTACKER:
                win += p
            elif result == BOTH:
                lose += p  # our piece is gone as well
            else:
                lose += p
        return win, lose

    def _flag_threats(self) -> dict[int, float]:
        """How much each enemy piece near our flag threatens it (by distance, ignoring pieces).
        Only a Miner gets through to a flag walled in by bombs: there the chance that a
        piece is a Miner counts `miner_alarm` times on top of its chance to move."""
        position = self.position
        alarm = self.bot.miner_alarm if self._flag_walled() else 0.0
        threats: dict[int, float] = {}
        for square, distance in self.flag_distance.items():
            if position.owner[square] == 1 - position.me and distance > 0:
                weight = self.beliefs.can_move(square)
                if alarm:
                    weight += alarm * self.beliefs.of(square).get(MINER, 0.0)
                threats[square] = weight * FLAG_GUARD * 0.5 ** (distance - 1)
        return threats

    def _flag_walled(self) -> bool:
        """Whether every square next to our flag holds one of our bombs."""
        flag = next((sq for sq, d in self.flag_distance.items() if d == 0), None)
        if flag is None:
            return False
        position = self.position
        return all(
            position.owner[n] == position.me and position.ranks[n] == BOMB
            for n in self.variant.neighbors[flag]
        )

    # ------------------------------------------------------------------ progress
    def _progress(
        self, move: Move, rank: int, taken: int | None = None, first_strike: bool = False
    ) -> float:
        """How much closer `move` brings the piece to the best of its targets (value over
        1 + path length). A target counts only if both ends of the move are within sight
        of it: one out of sight adds nothing, rather than the same amount to every move.
        `taken`: the target the move attacks (it is not a target any more if beaten).
        `first_strike`: a target that would more likely than not win by attacking the
        piece counts no closer than two steps (next to it, it strikes first)."""
        before = after = 0.0
        for value, distances, square in self._targets_for(rank):
            if square == taken or move.src not in distances or move.dst not in distances:
                continue
            start, end = distances[move.src], distances[move.dst]
            if first_strike and min(start, end) < 2 and self._strikes_first(square, rank):
                start, end = max(start, 2), max(end, 2)
            before = max(before, value / (1 + start))
            after = max(after, value / (1 + end))
        return (after - before) * self.bot.progress_weight

    def _strikes_first(self, square: int, rank: int) -> bool:
        """Whether the enemy piece on `square` more likely than not beats our piece of
        `rank` by attacking it."""
        probs = self.beliefs.of(square)
        wins = sum(
            p
            for r, p in probs.items()
            if r not in IMMOVABLE and resolve_battle(r, rank, self.variant) == ATTACKER
        )
        return wins > 0.5

    def _targets_for(self, rank: int) -> list[Target]:
        """The enemy pieces a piece of `rank` would gain by attacking, with distance maps."""
        if rank not in self._targets:
            found = []
            for square, probs in self.beliefs.probs.items():
                value = self._gain(rank, square)
                if square in self.flag_threat:
                    value += self._branches(rank, probs)[0] * self.flag_threat[square]
                if value > 0.5:
                    found.append((value, square))
            found.sort(key=lambda item: -item[0])
            self._targets[rank] = [
                (value, self._target_distances(square, rank), square) for value, square in found[:6]
            ]
        return self._targets[rank]

    def _target_distances(self, square: int, rank: int) -> dict[int, float]:
        """Path lengths to a target. A target walled in (by bombs, say: no miner of ours can
        walk up to it) is dug out by miners: they plan through the pieces in the way."""
        distances = self._distances(square, False)
        if rank != MINER or not self.bot.dig:
            return distances
        miners = [sq for sq in self.position.mine() if self.position.ranks[sq] == MINER]
        if any(sq in distances for sq in miners):
            return distances
        return self._distances(square, True)

    def _distances(self, square: int, dig: bool) -> dict[int, float]:
        key = (square, dig)
        if key not in self._distance_maps:
            through = self._dig_costs() if dig else None
            self._distance_maps[key] = distances_from(
                self.variant, self.position, square, TARGET_REACH, through
            )
        return self._distance_maps[key]

    def _dig_costs(self) -> dict[int, float]:
        """The cost for a miner of going through each enemy piece: the attack and the step,
        the more the less likely the miner beats it (a known bomb: 3)."""
        if self._dig is None:
            self._dig = {}
            for square, probs in self.beliefs.probs.items():
                chance = self._branches(MINER, probs)[0]
                if chance >= DIG_CHANCE:
                    self._dig[square] = 1 + DIG_COST / chance
        return self._dig


def guard_ranks(variant: Variant) -> frozenset[int]:
    """Who guards the flag: sergeants to majors. Small armies have none to spare (in duel
    and barrage, miners kept home as guards lost more games than they saved)."""
    return GUARD_RANKS & frozenset(variant.army_counts)


def bfs(variant: Variant, start: int, limit: int) -> dict[int, int]:
    """Distances from `start` over every square but lakes, pieces ignored, up to `limit`."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        square = queue.popleft()
        if seen[square] >= limit:
            continue
        for nxt in variant.neighbors[square]:
            if nxt not in seen:
                seen[nxt] = seen[square] + 1
                queue.append(nxt)
    return seen


def guarded_setup(variant: Variant, color: int, rng: random.Random) -> dict[int, int]:
    """The flag on the back row where the fewest neighbours are left unguarded, bombs next
    to it while bombs last, a sturdy piece on any neighbour left open (so no scout reaches
    the flag along a line), the rest by the engine's generator."""
    back = [sq for sq in variant.setup_squares(color) if variant.is_back_row(color, sq)]
    bombs = variant.army_counts.get(BOMB, 0)
    fewest = min(len(variant.neighbors[sq]) for sq in back)
    candidates = [sq for sq in back if len(variant.neighbors[sq]) <= max(bombs, fewest)]
    flag = rng.choice(candidates)
    placed = {flag: FLAG}
    open_squares = []
    for square in rng.sample(sorted(variant.neighbors[flag]), len(variant.neighbors[flag])):
        if bombs:
            placed[square] = BOMB
            bombs -= 1
        else:
            open_squares.append(square)
    for square in open_squares:
        placed[square] = _sturdy_rank(variant, placed, rng)
    return generate_setup(variant, color, rng, placed)


def _sturdy_rank(variant: Variant, placed: dict[int, int], rng: random.Random) -> int:
    """A movable piece to stand next to the flag: not a scout or spy, the cheapest left."""
    used = list(placed.values())
    left = [
        rank
        for rank, count in variant.army
        if rank not in (BOMB, FLAG, SCOUT, SPY) and used.count(rank) < count
    ]
    cheapest = min(left)
    return rng.choice([rank for rank in left if rank == cheapest])


__all__ = ["HardPlayer", "MoveScorer", "guarded_setup"]
