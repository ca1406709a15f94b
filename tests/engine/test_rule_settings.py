"""Rule settings per game: `Variant.with_rules`, persisted as overrides, shown in every view."""

import dataclasses
import json

import pytest

from games.engine import (
    BLUE,
    BOMB,
    FLAG,
    GENERAL,
    MARSHAL,
    OBSERVER,
    RED,
    SCOUT,
    SPY,
    Game,
    IllegalMoveError,
    RulesError,
    get_variant,
    parse_move,
)

from .boards import game_from
from .test_stalling import OPEN_FIELD  # a Red Lieutenant and a Blue Sergeant in the open

CLASSIC_3 = get_variant("classic").with_rules(two_squares_limit=3)


def play(game: Game, *moves: str) -> None:
    for text in moves:
        game.push(parse_move(text, game.variant))


def through_json(game: Game) -> Game:
    return Game.from_dict(json.loads(json.dumps(game.to_dict())))


def test_a_limit_of_three_survives_to_dict_and_refuses_the_fourth_move():
    game = game_from(OPEN_FIELD, CLASSIC_3)
    play(game, "E1-E2", "I4-I3", "E2-E1", "I3-I4", "E1-E2", "I4-I3")  # three moves E1-E2
    data = game.to_dict()
    assert data["variant"] == "classic" and data["rules"] == {"two_squares_limit": 3}
    restored = through_json(game)
    assert restored.variant == CLASSIC_3 and restored.variant.two_squares_limit == 3
    move = parse_move("E2-E1", restored.variant)
    assert move not in restored.legal_moves()
    with pytest.raises(IllegalMoveError) as info:
        restored.push(move)
    assert info.value.code == "two_squares" and "more than 3 times" in info.value.message
    # The same moves under the ISF limit of 5 allow the fourth.
    isf = game_from(OPEN_FIELD, "classic")
    play(isf, "E1-E2", "I4-I3", "E2-E1", "I3-I4", "E1-E2", "I4-I3")
    assert move in through_json(isf).legal_moves()


def test_a_game_under_the_named_rules_stores_no_overrides_and_old_dicts_load():
    game = game_from(OPEN_FIELD, "classic")
    data = game.to_dict()
    assert "rules" not in data
    assert Game.from_dict(data).variant == get_variant("classic")
    data["rules"] = {}
    assert Game.from_dict(data).variant == get_variant("classic")


def test_rule_overrides_are_the_settings_that_differ_from_the_named_variant():
    classic = get_variant("classic")
    assert classic.rule_overrides() == {}
    assert classic.with_rules(two_squares_limit=5) == classic  # the ISF value: no override
    assert classic.with_rules(two_squares_limit=5).rule_overrides() == {}
    changed = classic.with_rules(max_quiet_plies=None, spy_beats=[MARSHAL, GENERAL])
    assert changed.rule_overrides() == {"max_quiet_plies": None, "spy_beats": [GENERAL, MARSHAL]}
    assert changed.spy_beats == frozenset({MARSHAL, GENERAL}) and changed.name == "classic"
    assert classic.with_rules(**changed.rule_overrides()) == changed


def test_every_rule_setting_round_trips_through_json():
    duel = get_variant("duel").with_rules(
        two_squares_limit=4,
        more_squares_rule=True,
        return_after_moves=None,
        max_plies=None,
        max_quiet_plies=300,
        spy_beats={MARSHAL, GENERAL},
    )
    game = game_from(OPEN_FIELD, duel)
    play(game, "E1-E2")
    assert through_json(game).variant == duel
    assert through_json(game).to_dict() == game.to_dict()


@pytest.mark.parametrize(
    "rules, message",
    [
        ({"width": 5}, "'width' is not a rule setting"),
        ({"army": ()}, "the classic army is fixed"),
        ({"two_square_limit": 3}, "'two_square_limit' is unknown"),
        ({"two_squares_limit": 0}, "at least 2"),
        ({"two_squares_limit": 1}, "at least 2"),
        ({"two_squares_limit": "3"}, "not '3'"),
        ({"two_squares_limit": True}, "not True"),
        ({"two_squares_limit": 3.0}, "not 3.0"),
        ({"return_after_moves": 1}, "at least 2"),
        ({"max_plies": 0}, "at least 1"),
        ({"max_quiet_plies": -5}, "at least 1"),
        ({"more_squares_rule": 1}, "True or False"),
        ({"more_squares_rule": None}, "True or False"),
        ({"spy_beats": {BOMB}}, "from Scout"),
        ({"spy_beats": {SPY}}, "from Scout"),
        ({"spy_beats": "M"}, "a set of ranks"),
        ({"spy_beats": MARSHAL}, "a set of ranks"),
    ],
)
def test_bad_rule_settings_are_refused_clearly(rules, message):
    with pytest.raises(RulesError, match=message):
        get_variant("classic").with_rules(**rules)
    data = game_from(OPEN_FIELD, "classic").to_dict()
    data["rules"] = rules
    with pytest.raises(RulesError):
        Game.from_dict(data)


def test_a_variant_with_another_army_cannot_be_saved_by_name():
    custom = dataclasses.replace(get_variant("mini"), army=((SCOUT, 1), (FLAG, 1)))
    with pytest.raises(RulesError, match="cannot be saved by name"):
        custom.rule_overrides()
    game = Game.from_setups(custom, {9: SCOUT, 0: FLAG}, {24: FLAG, 15: SCOUT})
    with pytest.raises(RulesError):
        game.to_dict()


def test_every_view_shows_the_rules_in_force():
    game = game_from(OPEN_FIELD, CLASSIC_3)
    for viewer in (RED, BLUE, OBSERVER):
        rules = json.loads(json.dumps(game.view(viewer).to_dict()))["rules"]
        assert rules == {
            "two_squares_limit": 3,
            "more_squares_rule": True,
            "return_after_moves": None,
            "max_plies": None,
            "max_quiet_plies": 400,
            "spy_beats": [MARSHAL],
        }
    assert Game("duel").view(RED).to_dict()["rules"]["return_after_moves"] == 3
