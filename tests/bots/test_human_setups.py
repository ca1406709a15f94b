"""`expert` sets up as people do, and weighs unmoved enemy pieces by where people put
each rank (games/bots/human_setups.py)."""

from __future__ import annotations

import random

import pytest

from games.bots import ExpertPlayer
from games.bots.human_setups import human_setup, place, setups, square_odds, weigh_by_setups
from games.bots.knowledge import build_beliefs
from games.engine import (
    BLUE,
    BOMB,
    FLAG,
    MARSHAL,
    RED,
    SCOUT,
    Game,
    get_variant,
    validate_setup,
)


@pytest.mark.parametrize(("name", "count"), [("classic", 400), ("barrage", 150)])
def test_every_setup_of_people_is_legal_for_both_sides_both_ways(name: str, count: int) -> None:
    variant = get_variant(name)
    grids = setups(name)
    assert len(grids) == count
    for grid in grids:
        for color in (RED, BLUE):
            for mirror in (False, True):
                validate_setup(variant, color, place(variant, color, grid, mirror))


def test_a_grid_is_placed_back_row_first_and_mirrored_on_request() -> None:
    variant = get_variant("classic")
    grid = setups("classic")[0]
    red, blue = place(variant, RED, grid, False), place(variant, BLUE, grid, False)
    assert red[0] == grid[0][0] and red[39] == grid[3][9]  # Red's back row is row 0
    assert blue[90] == grid[0][0] and blue[69] == grid[3][9]  # Blue's is row 9
    assert place(variant, RED, grid, True)[9] == grid[0][0]


def test_expert_sets_up_as_one_of_the_people() -> None:
    variant = get_variant("classic")
    known = set()
    for grid in setups("classic"):
        for mirror in (False, True):
            known.add(tuple(sorted(place(variant, BLUE, grid, mirror).items())))
    for seed in range(6):
        bot = ExpertPlayer(seed, nodes=100)
        bot.start(BLUE, variant)
        assert tuple(sorted(bot.setup().items())) in known
    assert human_setup(get_variant("duel"), RED, random.Random(1)) is None


def test_the_odds_say_what_people_do() -> None:
    """Flags on the back row, bombs rather around them, scouts rather in front."""
    odds = square_odds("classic")
    back = [odds[(0, col)] for col in range(10)]
    front = [odds[(3, col)] for col in range(10)]
    assert min(cell[FLAG] for cell in back) > max(cell[FLAG] for cell in front)
    assert sum(cell[SCOUT] for cell in front) > sum(cell[SCOUT] for cell in back)
    assert sum(cell[BOMB] for cell in front) < sum(cell[BOMB] for cell in back)
    assert all(0.25 <= p <= 4.0 for cell in odds.values() for p in cell.values())


def test_beliefs_weigh_unmoved_pieces_by_the_odds_and_leave_moved_ones() -> None:
    variant = get_variant("classic")
    rng = random.Random(3)
    from games.engine import generate_setup

    game = Game.from_setups(
        variant, generate_setup(variant, RED, rng), generate_setup(variant, BLUE, rng)
    )
    game.push(next(m for m in game.legal_moves() if m.src // 10 == 3))  # a Red front piece
    view = game.view(BLUE)
    plain = build_beliefs(view)
    weighed = build_beliefs(view, adjust=weigh_by_setups)
    front = [sq for sq in range(30, 40) if view.board[sq] and not view.board[sq].moved]
    back = list(range(0, 10))
    scout_front = sum(weighed.p(sq, SCOUT) - plain.p(sq, SCOUT) for sq in front)
    scout_back = sum(weighed.p(sq, SCOUT) - plain.p(sq, SCOUT) for sq in back)
    assert scout_front > 0.3 and scout_back < -0.3
    bomb_front = sum(weighed.p(sq, BOMB) - plain.p(sq, BOMB) for sq in front)
    assert bomb_front < 0
    marshal_total = sum(weighed.p(sq, MARSHAL) for sq in weighed.probs)
    assert marshal_total == pytest.approx(1.0, abs=1e-6)  # still one hidden Marshal
