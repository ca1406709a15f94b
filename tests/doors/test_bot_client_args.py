"""The bot client's choices without a server: its command line, and which lobby games it
accepts (never its own)."""

from __future__ import annotations

import pytest

from clients.bot.__main__ import load_player, parse
from clients.bot.connection import wanted
from games.engine.player_interface import Player

ARGS = ["--server", "http://127.0.0.1:8000", "--token", "stb_x", "--player", "random"]


def entry(variant: str = "mini", clock: str | None = None, seats: list | None = None) -> dict:
    control = None if clock is None else {"id": clock}
    red = {"name": "someone", "guest": True}
    return {"variant": variant, "time_control": control, "seats": seats or [red, None]}


def test_which_open_games_a_bot_accepts():
    assert wanted(entry(), None, None, "me")
    assert wanted(entry("mini", "5+3"), "mini", "5+3", "me")
    assert wanted(entry("mini"), "mini", "untimed", "me")
    assert not wanted(entry("classic"), "mini", None, "me")
    assert not wanted(entry("mini", "5+3"), None, "untimed", "me")
    mine = [{"name": "me", "guest": False, "bot": True}, None]
    assert not wanted(entry(seats=mine), None, None, "me")  # its own open game
    person_named_me = [{"name": "me", "guest": True}, None]
    assert wanted(entry(seats=person_named_me), None, None, "me")  # a guest's nickname
    full = [{"name": "a", "guest": True}, {"name": "b", "guest": True}]
    assert not wanted(entry(seats=full), None, None, "me")


def test_the_command_line():
    args = parse([*ARGS, "--create", "--variant", "duel", "--clock", "5+3", "--forever"])
    assert (args.create, args.variant, args.clock, args.forever) == (True, "duel", "5+3", True)
    assert parse(ARGS).games == 1 and parse(ARGS).seat == "random"
    for bad in (["--game", "abc", "--forever"], ["--game", "abc", "--games", "2"],
                ["--game", "abc", "--create"], ["--games", "0"],
                ["--games", "2", "--forever"], ["--seat", "green"]):  # fmt: skip
        with pytest.raises(SystemExit):
            parse([*ARGS, *bad])


@pytest.mark.parametrize("level", ["random", "medium", "hard", "expert"])
def test_every_computer_level_can_be_the_player(level):
    assert isinstance(load_player(level), Player)


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("games.engine:Move", "is not a games.engine.player_interface.Player class"),
        ("games.engine:NoSuchThing", "has no attribute 'NoSuchThing'"),
        ("no_such_module:Bot", "No module named 'no_such_module'"),
        ("nocolon", "--player takes module:Class"),
    ],
)
def test_a_player_that_is_not_a_player_is_a_clear_error(spec, says):
    with pytest.raises(SystemExit) as refused:
        load_player(spec)
    assert says in str(refused.value)
