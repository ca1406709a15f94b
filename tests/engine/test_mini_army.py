"""The console game's armies: each mini game may draw its army at random (the Marshal or the
General, three of Colonel..Sergeant, repeats allowed), the same army for both sides."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engine import (
    ATTACKER,
    BLUE,
    BOMB,
    CAPTAIN,
    COLONEL,
    FLAG,
    GENERAL,
    LIEUTENANT,
    MAJOR,
    MARSHAL,
    MINER,
    RED,
    SERGEANT,
    SPY,
    Game,
    Move,
    RulesError,
    SetupError,
    generate_setup,
    get_variant,
    validate_setup,
)

from .boards import parse_board
from .test_moves import CONSOLE_SECOND_BOARD

MINI = get_variant("mini")
MIDDLE = (COLONEL, MAJOR, CAPTAIN, LIEUTENANT, SERGEANT)


def test_every_draw_is_an_army_of_the_console_game():
    for seed in range(300):
        army = Counter(dict(MINI.draw_army(random.Random(seed)).army))
        assert sum(army.values()) == 10
        assert (army[FLAG], army[BOMB], army[MINER], army[SPY]) == (1, 3, 1, 1)
        assert army[MARSHAL] + army[GENERAL] == 1
        assert sum(army[r] for r in MIDDLE) == 3


def test_draws_vary_and_reach_the_general_and_every_middle_rank():
    armies = {MINI.draw_army(random.Random(seed)).army for seed in range(300)}
    seen = Counter(rank for army in armies for rank, _ in army)
    assert len(armies) > 20
    assert seen[GENERAL] and seen[MARSHAL] and all(seen[r] for r in MIDDLE)


def test_the_console_games_own_red_army_is_a_legal_setup_under_its_draw():
    """The second sample board's Red army: Marshal, Lieutenant, two Majors (old 1, 6, 4, 4)."""
    board = parse_board(CONSOLE_SECOND_BOARD)
    red = {sq: rank for sq, (color, rank) in board.items() if color == RED}
    with pytest.raises(SetupError):  # not the standard mini army
        validate_setup(MINI, RED, red)
    drawn = MINI.with_rules(army=Counter(red.values()))
    validate_setup(drawn, RED, red)
    assert drawn.rule_overrides()["army"] == [
        [MARSHAL, 1], [MAJOR, 2], [LIEUTENANT, 1], [MINER, 1], [SPY, 1], [BOMB, 3], [FLAG, 1]
    ]  # fmt: skip


def test_a_drawn_army_is_kept_by_the_saved_game_and_shown_in_every_view():
    drawn = MINI.with_rules(army={GENERAL: 1, SERGEANT: 3, MINER: 1, SPY: 1, BOMB: 3, FLAG: 1})
    game = Game(drawn)
    rng = random.Random(3)
    for color in (RED, BLUE):
        game.set_setup(color, generate_setup(drawn, color, rng))
        game.mark_ready(color)
    loaded = Game.from_dict(game.to_dict())
    assert loaded.variant == drawn and loaded.variant.army == drawn.army
    for viewer in (RED, BLUE, 2):
        view = loaded.view(viewer)
        assert view.to_dict()["army"] == {str(r): n for r, n in drawn.army}
        assert view.game_variant() == drawn
    assert loaded.view(RED).remaining is not None
    with pytest.raises(SetupError):  # a Marshal is no part of this army
        Game(drawn).place(RED, 5, MARSHAL)


def test_the_spy_beats_a_general_it_attacks_in_a_mini_game_that_drew_one():
    drawn = MINI.with_rules(army={GENERAL: 1, CAPTAIN: 3, MINER: 1, SPY: 1, BOMB: 3, FLAG: 1})
    game = Game.from_position(
        drawn,
        {0: (RED, FLAG), 12: (RED, SPY), 17: (BLUE, GENERAL), 24: (BLUE, FLAG), 4: (RED, MINER)},
    )
    result = game.push(Move(12, 17))
    assert result.battle is not None and result.battle.result == ATTACKER
    assert game.board[17].rank == SPY


@pytest.mark.parametrize(
    "army",
    [
        {MARSHAL: 2, COLONEL: 2, MINER: 1, SPY: 1, BOMB: 3, FLAG: 1},  # two of Marshal/General
        {MARSHAL: 1, GENERAL: 1, COLONEL: 2, MINER: 1, SPY: 1, BOMB: 3, FLAG: 1},
        {MARSHAL: 1, COLONEL: 3, MINER: 1, SPY: 1, BOMB: 2, FLAG: 1},  # a bomb short
        {MARSHAL: 1, COLONEL: 4, MINER: 1, SPY: 1, BOMB: 3, FLAG: 1},  # four middle pieces
        {MARSHAL: 1, COLONEL: 3, MINER: 1, SPY: 1, BOMB: 3, FLAG: 1, 2: 1},  # a scout
        "marshal",
        [[MARSHAL, "x"]],
    ],
)
def test_an_army_the_console_game_would_not_draw_is_refused(army):
    with pytest.raises(RulesError):
        MINI.with_rules(army=army)


def test_only_a_variant_with_army_choices_takes_another_army():
    with pytest.raises(RulesError, match="fixed"):
        get_variant("classic").with_rules(army={MARSHAL: 1})
    assert get_variant("classic").draw_army(random.Random(1)) == get_variant("classic")
    assert MINI.with_rules(army=dict(MINI.army)) == MINI  # the standard draw is no override
    assert MINI.with_rules(army=dict(MINI.army)).rule_overrides() == {}
