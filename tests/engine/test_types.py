"""The engine's internals are typed as its API is: enums, records, copies, one coded error."""

import json

import pytest

from games.engine import (
    BLUE,
    OBSERVER,
    RED,
    Game,
    IllegalMoveError,
    MoveResult,
    Outcome,
    Phase,
    SetupError,
    Termination,
    parse_move,
)
from games.engine.errors import CodedError

from .boards import game_from
from .test_stalling import OPEN_FIELD


def test_phase_and_termination_are_str_enums_equal_to_the_stored_strings():
    game = game_from(OPEN_FIELD, "classic")
    assert game.phase is Phase.PLAYING and game.phase == "playing"
    game.resign(BLUE)
    assert game.outcome == Outcome(RED, "resignation")
    assert game.outcome.termination is Termination.RESIGNATION
    data = json.loads(json.dumps(game.to_dict()))
    assert data["phase"] == "finished" and data["outcome"]["termination"] == "resignation"
    assert type(data["outcome"]["termination"]) is str
    assert Game.from_dict(data).phase is Phase.FINISHED
    with pytest.raises(ValueError):
        Outcome(RED, "checkmate")


def test_a_view_holds_the_last_move_as_a_move_result_without_a_hidden_rank():
    game = game_from(OPEN_FIELD, "classic")
    game.push(parse_move("E1-E2", game.variant))
    mine, theirs, watching = (game.view(v) for v in (RED, BLUE, OBSERVER))
    assert isinstance(mine.last_move, MoveResult) and mine.last_move.rank == 5
    assert theirs.last_move.rank is None and watching.last_move.rank is None
    assert theirs.last_move.move == parse_move("E1-E2", game.variant)
    assert theirs.to_dict()["last_move"]["notation"] == "E1-E2"
    game.resign(RED)
    assert game.view(BLUE).last_move.rank == 5  # the game is over: everything shows
    assert game.view(BLUE).outcome == Outcome(BLUE, "resignation")
    assert game.view(BLUE).to_dict()["outcome"] == {"winner": BLUE, "termination": "resignation"}


def test_initial_setups_are_copies():
    game = Game("mini")
    game.random_setup(RED)
    copy = game.initial_setups()
    copy[RED].clear()
    assert game.is_setup_complete(RED)


def test_one_coded_error_base_for_the_engine_the_services_and_the_guards():
    from games.domain.errors import ServiceError
    from games.transport.guards import BadFrame

    for error in (
        IllegalMoveError("lake", "no piece may enter a lake"),
        SetupError("incomplete", "place all your pieces"),
        ServiceError("not_found", "no such game"),
        BadFrame("bad_json", "The frame is not valid JSON."),
    ):
        assert isinstance(error, CodedError) and isinstance(error, ValueError)
        assert error.code and error.message
    assert str(ServiceError("not_found", "no such game")) == "not_found: no such game"
    assert str(BadFrame("bad_json", "not JSON")) == "not JSON"
