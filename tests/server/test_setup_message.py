"""A whole setup in one message (`setup`) and one transaction (services.submit_setup)."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pytest

from games import engine, services
from games.domain.errors import ServiceError
from games.domain.models import Game, GameEvent
from games.transport.guards import placement_field

from .conftest import BLUE_SETUP, RED_SETUP, adb, connect, make_guest, receive
from .helpers import seated_game
from .leaks import assert_no_leak


def pieces(setup: dict) -> dict:
    return {str(square): rank for square, rank in setup.items()}


@pytest.mark.django_db
def test_a_whole_setup_replaces_a_partial_one_in_one_event():
    gid, red, blue = seated_game()
    services.place_piece(gid, red, 9, engine.MARSHAL)  # a marshal where RED_SETUP has a major
    services.place_piece(gid, red, 5, engine.SPY)
    before = Game.objects.get(public_id=gid).version
    assert services.submit_setup(gid, red, RED_SETUP) == before + 1
    state = engine.Game.from_dict(Game.objects.get(public_id=gid).state)
    assert state.setups[0] == RED_SETUP and not state.ready[0]
    event = GameEvent.objects.get(game__public_id=gid, version=before + 1)
    squares = sorted(RED_SETUP)
    assert event.kind == "setup"
    assert event.red_payload == {
        "kind": "setup", "color": 0, "squares": squares, "ranks": [RED_SETUP[s] for s in squares],
        "placed": len(RED_SETUP),
    }  # fmt: skip
    hidden = {"kind": "setup", "color": 0, "placed": len(RED_SETUP)}  # no square
    assert event.blue_payload == event.observer_payload == hidden
    services.ready(gid, red)
    services.submit_setup(gid, blue, BLUE_SETUP)
    services.ready(gid, blue)
    assert Game.objects.get(public_id=gid).status == "playing"


def broken(change: dict | None = None, drop: int | None = None) -> dict:
    setup = dict(RED_SETUP)
    if drop is not None:
        del setup[drop]
    setup.update(change or {})
    return setup


BAD_SETUPS = [
    (broken(drop=9), "incomplete"),  # a piece short
    (broken({9: engine.MARSHAL}), "none_left"),  # two marshals, no major
    (broken({12: engine.MAJOR}, drop=9), "outside_setup_area"),  # beyond Red's two rows
    (broken({99: engine.MAJOR}, drop=9), "off_board"),
    (broken({9: 42}), "unknown_rank"),
    (broken({0: engine.CAPTAIN, 6: engine.FLAG}), "flag_not_on_back_row"),
    ({}, "incomplete"),
]


@pytest.mark.django_db
def test_a_bad_setup_changes_nothing():
    gid, red, _ = seated_game()
    services.place_piece(gid, red, 7, engine.MARSHAL)
    game = Game.objects.get(public_id=gid)
    for setup, code in BAD_SETUPS:
        with pytest.raises(ServiceError) as err:
            services.submit_setup(gid, red, setup)
        assert err.value.code == code, (setup, err.value)
        fresh = Game.objects.get(public_id=gid)
        assert (fresh.version, fresh.state) == (game.version, game.state)
    with pytest.raises(ServiceError) as err:
        services.submit_setup(gid, make_guest(), RED_SETUP)
    assert err.value.code == "not_a_player"
    services.submit_setup(gid, red, RED_SETUP)
    services.ready(gid, red)
    with pytest.raises(ServiceError) as err:
        services.submit_setup(gid, red, RED_SETUP)
    assert err.value.code == "already_ready"


BAD_FRAMES = [
    ({"type": "setup"}, "bad_field"),
    ({"type": "setup", "pieces": [[0, 12]]}, "bad_field"),
    ({"type": "setup", "pieces": "0:12"}, "bad_field"),
    ({"type": "setup", "pieces": {"a": 12}}, "bad_field"),
    ({"type": "setup", "pieces": {"03": 12}}, "bad_field"),  # no two ways to name a square
    ({"type": "setup", "pieces": {"-1": 12}}, "bad_field"),
    ({"type": "setup", "pieces": {" 3": 12}}, "bad_field"),
    ({"type": "setup", "pieces": {"3": "12"}}, "bad_field"),
    ({"type": "setup", "pieces": {"3": True}}, "bad_field"),
    ({"type": "setup", "pieces": {"3": 12.5}}, "bad_field"),
    ({"type": "setup", "pieces": {"3": None}}, "bad_field"),
    ({"type": "setup", "pieces": {"3": 2**40}}, "bad_field"),
    ({"type": "setup", "pieces": pieces(broken(drop=9))}, "incomplete"),
    ({"type": "setup", "pieces": pieces(broken({12: engine.MAJOR}, drop=9))}, "outside_setup_area"),
]


@pytest.mark.django_db(transaction=True)
async def test_the_setup_message_over_the_socket_hides_the_ranks_from_the_others(caplog):
    caplog.set_level(logging.WARNING)
    gid, red, blue = await adb(seated_game)()
    red_ws = await connect(f"/ws/games/{gid}/", red)
    blue_ws = await connect(f"/ws/games/{gid}/", blue)
    watcher = await connect(f"/ws/games/{gid}/", await adb(make_guest)("watcher"))
    state = await receive(red_ws)
    await receive(blue_ws), await receive(watcher)

    for message, code in BAD_FRAMES:
        await red_ws.send_to(text_data=json.dumps(message))
        error = await receive(red_ws)
        assert (error["type"], error["code"], error["request"]) == ("error", code, "setup"), error
    await watcher.send_json_to({"type": "setup", "pieces": pieces(RED_SETUP)})
    assert (await receive(watcher))["code"] == "not_a_player"
    await red_ws.send_json_to({"type": "sync", "version": -1})
    fresh = await receive(red_ws)
    assert (fresh["version"], fresh["view"]) == (state["version"], state["view"])

    await red_ws.send_json_to({"type": "setup", "pieces": pieces(RED_SETUP)})
    frames = {role: await receive(ws) for role, ws in enumerate((red_ws, blue_ws, watcher))}
    squares = sorted(RED_SETUP)
    for role, frame in frames.items():
        assert frame["version"] == state["version"] + 1
        assert frame["event"]["kind"] == "setup" and frame["event"]["placed"] == len(squares)
        assert_no_leak(frame, role)
    assert frames[0]["event"]["ranks"] == [RED_SETUP[s] for s in squares]
    assert frames[0]["event"]["squares"] == squares
    for role in (1, 2):  # the others learn the count only, not where
        assert "squares" not in frames[role]["event"] and "ranks" not in frames[role]["event"]
        assert all(frames[role]["view"]["board"][s] is None for s in squares)
    assert frames[0]["view"]["board"][7]["rank"] == engine.MARSHAL
    for ws in (red_ws, blue_ws, watcher):
        await ws.disconnect()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_the_documented_setup_message_is_a_valid_classic_army():
    text = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    example = re.search(r'```json\n(\{"type": "setup".*?)\n```', text, re.S)
    assert example, "docs/protocol.md has an example of the setup message"
    message = json.loads(example.group(1))
    setup = placement_field(message, "pieces")
    assert len(setup) == 40
    variant = engine.get_variant("classic")
    engine.validate_setup(variant, 0, setup)  # raises unless complete and legal
