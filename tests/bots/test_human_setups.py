"""`expert` sets up as people did on Gravon (games/bots/human_setups.py)."""

from __future__ import annotations

import random

import pytest

from games.bots import ExpertPlayer
from games.bots.human_setups import human_setup, place, setups
from games.engine import (
    BLUE,
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
