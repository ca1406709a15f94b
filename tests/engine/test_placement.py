"""Setups: the tray, whole-setup validation, the real Gravon setups, random setups."""

import random
from pathlib import Path

import pytest

from games.engine import (
    BLUE,
    BOMB,
    FLAG,
    MARSHAL,
    RED,
    SCOUT,
    VARIANTS,
    Game,
    SetupError,
    get_variant,
    validate_setup,
)

DATA = Path(__file__).resolve().parents[1] / "data"  # copied from shared/data
GRAVON_LETTERS = {
    "B": BOMB,
    "C": 1,
    "D": 2,
    "E": 3,
    "F": 4,
    "G": 5,
    "H": 6,
    "I": 7,
    "J": 8,
    "K": 9,
    "L": 10,
    "M": FLAG,
}


def read_setups(name: str) -> list[str]:
    lines = (DATA / name).read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def setup_from_line(line: str, color: int, width: int = 10, height: int = 10) -> dict[int, int]:
    """A 40-letter Gravon line (back row first) as {square: rank} for `color`."""
    setup = {}
    for i, letter in enumerate(line):
        if letter == "A":
            continue
        depth, col = divmod(i, width)
        row = depth if color == RED else height - 1 - depth
        setup[row * width + col] = GRAVON_LETTERS[letter]
    return setup


@pytest.fixture(
    scope="module",
    params=[("classic", "gravon-classic-setups.txt"), ("barrage", "gravon-barrage-setups.txt")],
)
def real_setups(request):
    if not DATA.is_dir():
        pytest.fail(f"the Gravon sample setups are missing: {DATA}")
    variant, name = request.param
    return get_variant(variant), read_setups(name)


def test_every_real_setup_is_accepted_for_both_sides(real_setups):
    variant, lines = real_setups
    assert len(lines) in (400, 150)
    for line in lines:
        for color in (RED, BLUE):
            validate_setup(variant, color, setup_from_line(line, color))


def test_mutated_real_setups_are_rejected(real_setups):
    variant, lines = real_setups
    rng = random.Random(7)
    for line in rng.sample(lines, 40):
        setup = setup_from_line(line, RED)
        square, rank = rng.choice(sorted(setup.items()))
        into_lake = {**{s: r for s, r in setup.items() if s != square}, 42: rank}
        across_line = {**{s: r for s, r in setup.items() if s != square}, 40: rank}
        wrong_count = {**setup, square: MARSHAL if rank != MARSHAL else SCOUT}
        for bad, code in (
            (into_lake, "lake"),
            (across_line, "outside_setup_area"),
            (wrong_count, "none_left"),
        ):
            with pytest.raises(SetupError) as info:
                validate_setup(variant, RED, bad)
            assert info.value.code == code
        with pytest.raises(SetupError):
            validate_setup(variant, BLUE, setup)  # Red's rows are not Blue's


def test_the_tray_counts_what_is_left_to_place():
    game = Game("barrage")
    assert game.remaining(RED)[SCOUT] == 2
    game.place(RED, 0, SCOUT)
    game.place(RED, 1, SCOUT)
    assert game.remaining(RED)[SCOUT] == 0
    with pytest.raises(SetupError) as info:
        game.place(RED, 2, SCOUT)
    assert info.value.code == "none_left"
    assert game.remove(RED, 1) == SCOUT
    assert game.remaining(RED)[SCOUT] == 1
    with pytest.raises(SetupError) as info:
        game.remove(RED, 1)
    assert info.value.code == "empty_square"


@pytest.mark.parametrize(
    ("square", "code"),
    [
        (0, "occupied"),
        (45, "outside_setup_area"),
        (42, "lake"),
        (100, "off_board"),
        (95, "outside_setup_area"),
    ],
)
def test_placement_errors(square, code):
    game = Game("classic")
    game.place(RED, 0, MARSHAL)
    with pytest.raises(SetupError) as info:
        game.place(RED, square, SCOUT)
    assert info.value.code == code


def test_mini_flag_must_stand_on_the_back_row():
    game = Game("mini")
    with pytest.raises(SetupError) as info:
        game.place(RED, 5, FLAG)
    assert info.value.code == "flag_not_on_back_row"
    game.place(RED, 2, FLAG)
    with pytest.raises(SetupError) as info:
        game.place(BLUE, 15, FLAG)
    assert info.value.code == "flag_not_on_back_row"
    with pytest.raises(SetupError) as info:
        game.place(BLUE, 12, FLAG)
    assert info.value.code == "outside_setup_area"
    game.place(BLUE, 22, FLAG)


def test_ready_only_when_complete_and_then_locked():
    game = Game("mini")
    game.place(RED, 2, FLAG)
    with pytest.raises(SetupError) as info:
        game.mark_ready(RED)
    assert info.value.code == "incomplete"
    game.random_setup(RED, random.Random(1))
    assert game.setups[RED][2] == FLAG  # what was placed by hand stays
    game.mark_ready(RED)
    with pytest.raises(SetupError) as info:
        game.remove(RED, 2)
    assert info.value.code == "already_ready"
    assert game.phase == "setup"
    game.random_setup(BLUE)
    game.mark_ready(BLUE)
    assert game.phase == "playing" and game.turn == RED


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_random_setups_are_legal_and_look_like_a_players(variant):
    v = get_variant(variant)
    rng = random.Random(3)
    flags_on_back_row = flags_with_bomb = 0
    for i in range(200):
        color = i % 2
        game = Game(v)
        game.random_setup(color, rng)
        setup = game.setups[color]
        validate_setup(v, color, setup)
        flag = next(sq for sq, r in setup.items() if r == FLAG)
        flags_on_back_row += v.is_back_row(color, flag)
        flags_with_bomb += any(setup.get(n) == BOMB for n in v.neighbors[flag])
    assert flags_on_back_row == 200
    assert flags_with_bomb >= 150  # mostly protected
