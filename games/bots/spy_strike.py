"""The enemy Spy's strike at our Marshal, weighed by the beliefs instead of the worlds drawn.

`expert` values a move by its average over a few dozen sampled worlds. A hidden enemy piece
that is the Spy one time in thirty is the Spy in none of twelve worlds most of the time,
and then our Marshal's step next to it looks free; in the odd turn it is drawn, the same
step looks terrible. Picking the best of many such noisy averages favours the steps whose
draws were lucky, and DoI's Spy took our Marshal right after it stepped next to a piece
that had never moved. So the part of the average that depends on whether a neighbour of
our Marshal was drawn as the Spy is replaced by its expectation over the beliefs (as
`expert.expected_battle` does for the move's own battle): the search's average, less the
Marshal's loss where the worlds drew the strike, plus the loss weighed by the chance of it.
That loss counts what the Marshal means to the game, not only its worth in an exchange.
"""

from __future__ import annotations

from games.engine import BOMB, FLAG, MARSHAL, SPY, Game, Move

from .hard import MoveScorer
from .search import GAIN_DECAY

# A battle that leaves no Marshal of ours next to the Spy for its reply: it dies on a bomb
# or with their Marshal, or the game ends with their flag.
ENDS_THE_THREAT_IF_MARSHAL = frozenset({BOMB, MARSHAL, FLAG})
ENDS_THE_THREAT = frozenset({FLAG})
# What the Spy's strike costs, in our Marshal's worths: a game whose Marshal fell to the Spy
# was nearly always lost against DoI (docs/bots.md), which its worth in an exchange does
# not say.
STRIKE_WEIGHT = 3.0


class SpyStrike:
    """For one turn: our Marshal's square, and for each sampled world where it drew the
    enemy Spy among the pieces our view does not know."""

    def __init__(self, scorer: MoveScorer) -> None:
        position = scorer.position
        self.scorer = scorer
        self.enemy = 1 - position.me
        self.marshal = next((sq for sq in position.mine() if position.ranks[sq] == MARSHAL), None)
        self.active = self.marshal is not None and scorer.beliefs.enemy_alive(SPY)
        # the Spy takes it on the reply, one ply after the root (the search's decay)
        self.loss = scorer.values.mine[MARSHAL] * GAIN_DECAY
        self.hidden = frozenset(
            sq
            for sq in range(len(position.owner))
            if position.owner[sq] == self.enemy and position.ranks[sq] is None
        )
        self.worlds: list[tuple[int, Game]] = []  # (the hidden Spy's square or -1, world)

    def watch(self, world: Game) -> None:
        """Note where `world` put the enemy Spy (call once per world, in order)."""
        spy = -1
        if self.active:
            for square in self.hidden:
                unit = world.board[square]
                if unit is not None and unit.rank == SPY:
                    spy = square
                    break
        self.worlds.append((spy, world))

    def _near_marshal(self, move: Move) -> frozenset[int]:
        """The hidden enemy pieces next to our Marshal after `move` that could be the Spy
        (not the one `move` attacks: it dies, or it was no Spy)."""
        if not self.active:
            return frozenset()
        assert self.marshal is not None
        post = move.dst if move.src == self.marshal else self.marshal
        near = self.scorer.variant.neighbors[post]
        return frozenset(n for n in near if n in self.hidden and n != move.dst)

    def _ends(self, move: Move) -> frozenset[int]:
        """The defender's ranks for which `move` leaves no Marshal to strike at."""
        if move.dst not in self.hidden:
            return frozenset()
        return ENDS_THE_THREAT_IF_MARSHAL if move.src == self.marshal else ENDS_THE_THREAT

    def chance(self, move: Move) -> float:
        """By the beliefs: the chance that, after `move`, a hidden piece next to our Marshal
        is the Spy (there is one Spy: the chances add up) and the Marshal is there."""
        near = self._near_marshal(move)
        if not near:
            return 0.0
        beliefs = self.scorer.beliefs
        spy = sum(beliefs.p(n, SPY) for n in near)
        ends = self._ends(move)
        if not ends:
            return spy
        stays = 1.0 - sum(beliefs.p(move.dst, rank) for rank in ends)
        return spy * max(0.0, stays)

    def drawn(self, move: Move, worlds: int) -> float:
        """The share of the first `worlds` worlds where the same thing happened."""
        near = self._near_marshal(move)
        if not near or not worlds:
            return 0.0
        ends = self._ends(move)
        hits = 0
        for spy, world in self.worlds[:worlds]:
            if spy not in near:
                continue
            if ends and (unit := world.board[move.dst]) is not None and unit.rank in ends:
                continue
            hits += 1
        return hits / worlds

    def correction(self, move: Move, worlds: int) -> float:
        """What to add to `move`'s average over the first `worlds` worlds: the Marshal's
        loss as the worlds drew it, exchanged for the loss by its chance."""
        if not self.active:
            return 0.0
        return -self.loss * (STRIKE_WEIGHT * self.chance(move) - self.drawn(move, worlds))


__all__ = ["SpyStrike"]
