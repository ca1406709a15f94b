"""`expert` sets up as people did on Gravon (games/bots/human_setups.py)."""

from __future__ import annotations

import random

import pytest

from games.bots import ExpertPlayer
from games.bots.human_setups import human_setup, place, setups, walled_in
from games.engine import (
    BLUE,
    BOMB,
    FLAG,
    RED,
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


def test_a_flag_is_walled_in_only_with_a_bomb_on_every_side_on_the_board() -> None:
    empty = ((None,) * 10,) * 4

    def grid(cells: dict[tuple[int, int], int]) -> tuple:
        return tuple(tuple(cells.get((depth, col)) for col in range(10)) for depth in range(4))

    corner = {(0, 0): FLAG, (0, 1): BOMB, (1, 0): BOMB}
    assert walled_in(grid(corner))
    assert not walled_in(grid({**corner, (0, 1): None}))
    middle = {(0, 4): FLAG, (0, 3): BOMB, (0, 5): BOMB, (1, 4): BOMB}
    assert walled_in(grid(middle)) and not walled_in(grid({**middle, (0, 5): None}))
    # in the front row, the square ahead is always open
    front = {(3, 4): FLAG, (3, 3): BOMB, (3, 5): BOMB, (2, 4): BOMB}
    assert not walled_in(grid(front))
    assert not walled_in(empty)


@pytest.mark.parametrize("seed", range(8))
def test_expert_walls_its_flag_in_with_bombs(seed: int) -> None:
    variant = get_variant("classic")
    for color in (RED, BLUE):
        bot = ExpertPlayer(seed, nodes=100)
        bot.start(color, variant)
        setup = bot.setup()
        flag = next(square for square, rank in setup.items() if rank == FLAG)
        in_area = [n for n in variant.neighbors[flag] if n in setup]
        assert in_area and all(setup[n] == BOMB for n in in_area)
        # a square next to the flag that is not in the setup is ahead of the front row
        assert all(n // 10 in (4, 5) for n in variant.neighbors[flag] if n not in setup)
