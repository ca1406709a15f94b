"""What the pieces an opponent moves say of their ranks (`games.bots.mobility`)."""

from __future__ import annotations

import random

from games.bots import mobility
from games.bots.expert import adjust_beliefs
from games.bots.knowledge import build_beliefs
from games.engine import (
    BLUE,
    COLONEL,
    GENERAL,
    IMMOVABLE,
    MARSHAL,
    RED,
    SERGEANT,
    SPY,
    Game,
    generate_setup,
    get_variant,
)

CLASSIC = get_variant("classic")
STRONG = (MARSHAL, GENERAL, COLONEL)


def midgame(moved_blue: int, ply: int = 300) -> tuple[Game, int]:
    """Both full armies in their setups, `moved_blue` of Blue's movable pieces marked as
    moved (the first of them on Blue's front row), at `ply`. Returns the game and the
    square of a moved Blue piece."""
    rng = random.Random(4)
    game = Game.from_setups(
        CLASSIC, generate_setup(CLASSIC, RED, rng), generate_setup(CLASSIC, BLUE, rng)
    )
    game.ply = ply
    movable = [u for u in game.army[BLUE] if u.rank not in IMMOVABLE]
    movable.sort(key=lambda u: CLASSIC.depth(BLUE, u.square), reverse=True)
    for unit in movable[:moved_blue]:
        unit.moved = True
    return game, movable[0].square


def strong(beliefs, square: int) -> float:
    return sum(beliefs.p(square, rank) for rank in STRONG)


def test_a_moved_piece_of_a_still_army_is_believed_strong_and_the_still_ones_weak() -> None:
    """Against an opponent that has moved 4 of its 33 movable pieces, a moved hidden piece
    is more likely its Marshal, General or a Colonel than the shared beliefs say, less
    likely its Spy; and an unmoved piece less likely its Marshal."""
    game, square = midgame(moved_blue=4)
    view = game.view(RED)
    plain = build_beliefs(view)
    weighed = build_beliefs(view, adjust=adjust_beliefs)
    assert strong(weighed, square) > 1.5 * strong(plain, square)
    assert weighed.p(square, SPY) < 0.5 * plain.p(square, SPY)
    still = [
        sq
        for sq, p in enumerate(view.board)
        if p and p.color == BLUE and not p.moved and plain.p(sq, MARSHAL) > 0
    ]
    assert sum(weighed.p(sq, MARSHAL) for sq in still) < sum(plain.p(sq, MARSHAL) for sq in still)


def test_an_opponent_that_moves_most_of_its_army_tells_nothing_by_it() -> None:
    """`hard` moves nearly every piece: then moving says nothing of a piece's rank."""
    game, square = midgame(moved_blue=30)
    view = game.view(RED)
    assert mobility.moved_share(view) > mobility.LOOSE
    plain = build_beliefs(view)
    weighed = build_beliefs(view, adjust=mobility.adjust)
    for sq, probs in plain.probs.items():
        for rank, p in probs.items():
            assert abs(weighed.p(sq, rank) - p) < 1e-9, (sq, rank)
    assert weighed.p(square, SERGEANT) == plain.p(square, SERGEANT)
