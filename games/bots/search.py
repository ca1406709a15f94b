"""Search for `expert`: complete boards sampled from the beliefs, searched by alpha-beta.

A *world* is one complete board consistent with what the bot's view shows: its own pieces,
the revealed enemy pieces, and a rank drawn for every hidden enemy piece from the belief
model (`knowledge.Beliefs`), so that the ranks drawn match the army still hidden. In a world
everything is known, so the engine can play it out; averaging the search's value of a move
over many worlds weighs each outcome by how likely the bot believes it is (determinization).

Every state operation goes through `play` and `moves` below (copy-make through the
engine's public `Game.from_position` and `Game.push`): the rules are the engine's, and
switching to a faster make/unmake later changes only these two functions.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass

from games.engine import ATTACKER, BOTH, DEFENDER, IMMOVABLE, Game, Move, View

from .knowledge import Beliefs

WIN = 1000.0  # a won game (no movable piece left to the loser); the flag counts FLAG_VALUE
QUIESCENCE_PLIES = 4  # captures followed after the search's horizon
SAMPLE_TRIES = 20


class TimeUp(Exception):
    """The search's deadline passed: the depth being searched is abandoned."""


@dataclass
class Node:
    """A state of a world and the material balance since the root, for the bot (`me`)."""

    game: Game
    score: float


class Searcher:
    """Alpha-beta with quiescence over captures, in worlds, valued with the bot's tables."""

    def __init__(
        self, me: int, mine: Mapping[int, float], theirs: Mapping[int, float], deadline: float
    ) -> None:
        self.me = me
        self.mine = mine
        self.theirs = theirs
        self.deadline = deadline
        self.nodes = 0

    # ------------------------------------------------------------- the adapter
    def play(self, node: Node, move: Move) -> Node:
        """The state after `move` (copy-make), with the material it won or lost."""
        self.nodes += 1
        if self.nodes & 15 == 0 and time.perf_counter() > self.deadline:
            raise TimeUp
        game = node.game
        pieces = {sq: (u.color, u.rank) for sq, u in enumerate(game.board) if u is not None}
        child = Game.from_position(game.variant, pieces, game.turn)
        result = child.push(move)
        score = node.score
        if result.battle is not None:
            score += self._battle(
                result.color, result.battle.attacker, result.battle.defender, result.battle.result
            )
        if child.outcome is not None and child.outcome.termination != "flag_captured":
            winner = child.outcome.winner
            if winner is not None:
                score += WIN if winner == self.me else -WIN
        return Node(child, score)

    @staticmethod
    def moves(node: Node) -> list[Move]:
        return node.game.legal_moves()

    # ------------------------------------------------------------- values
    def _battle(self, color: int, attacker: int, defender: int, result: str) -> float:
        """What a battle is worth to the bot: the values of the pieces it removed."""
        lost = {ATTACKER: [defender], DEFENDER: [attacker], BOTH: [attacker, defender]}[result]
        owners = {ATTACKER: [1 - color], DEFENDER: [color], BOTH: [color, 1 - color]}[result]
        return sum(
            -self.mine[rank] if owner == self.me else self.theirs[rank]
            for rank, owner in zip(lost, owners, strict=True)
        )

    def evaluate(self, node: Node) -> float:
        """The material balance for the side to move."""
        return node.score if node.game.turn == self.me else -node.score

    def _victim(self, node: Node, move: Move) -> float:
        """Move ordering: the most valuable victim first (captures before quiet moves)."""
        target = node.game.board[move.dst]
        if target is None:
            return 0.0
        table = self.theirs if target.color != self.me else self.mine
        return table[target.rank]

    # ------------------------------------------------------------- the search
    def search(self, node: Node, depth: int, alpha: float, beta: float) -> float:
        """Negamax alpha-beta: the value of `node` for its side to move."""
        if node.game.is_over:
            return self.evaluate(node)
        if depth <= 0:
            return self.quiesce(node, alpha, beta, QUIESCENCE_PLIES)
        moves = sorted(self.moves(node), key=lambda m: -self._victim(node, m))
        best = -float("inf")
        for move in moves:
            value = -self.search(self.play(node, move), depth - 1, -beta, -alpha)
            if value > best:
                best = value
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        return best

    def quiesce(self, node: Node, alpha: float, beta: float, plies: int) -> float:
        """Stand pat, or follow captures (a pending capture is never left unseen)."""
        stand = self.evaluate(node)
        if node.game.is_over or plies <= 0 or stand >= beta:
            return stand
        alpha = max(alpha, stand)
        captures = [m for m in self.moves(node) if node.game.board[m.dst] is not None]
        captures.sort(key=lambda m: -self._victim(node, m))
        for move in captures:
            value = -self.quiesce(self.play(node, move), -beta, -alpha, plies - 1)
            if value > alpha:
                alpha = value
            if alpha >= beta:
                break
        return alpha

    def root_values(self, world: Game, candidates: list[Move], depth: int) -> list[float]:
        """The value for the bot of each candidate in one world, `depth` plies deep."""
        root = Node(world, 0.0)
        values = []
        for move in candidates:
            child = self.play(root, move)
            values.append(-self.search(child, depth - 1, -float("inf"), float("inf")))
        return values


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
    return Game.from_position(variant, pieces, view.turn)


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


__all__ = ["Node", "Searcher", "TimeUp", "draw_ranks", "sample_world"]
