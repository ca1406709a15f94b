"""The game socket through the real ASGI application, Redis channel layer and PostgreSQL."""

from __future__ import annotations

import json
import logging

import pytest

from games import engine, services

from .conftest import CONNECT_TIMEOUT, adb, connect, make_guest, receive, socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def new_game(variant: str = "mini"):
    red, blue = await adb(make_guest)("red"), await adb(make_guest)("blue")
    game = await adb(services.create_game)(red, variant=variant, seat=0)
    await adb(services.join_game)(game.public_id, blue)
    return game.public_id, red, blue


async def test_player_gets_its_own_state():
    gid, red, _ = await new_game()
    comm = await connect(f"/ws/games/{gid}/", red)
    state = await receive(comm)
    assert state["type"] == "state" and state["role"] == 0 and state["version"] == 2
    assert state["view"]["viewer"] == 0 and state["game"]["id"] == gid
    red_seat, blue_seat = state["game"]["seats"]
    assert red_seat == {"name": "red", "guest": True} and blue_seat["name"] == "blue"
    await comm.disconnect()


async def test_observer_role_and_refused_actions():
    gid, _, _ = await new_game()
    comm = await connect(f"/ws/games/{gid}/", await adb(make_guest)())
    state = await receive(comm)
    assert state["role"] == 2 and state["view"]["remaining"] is None
    await comm.send_json_to({"type": "place", "square": 7, "rank": engine.MARSHAL})
    error = await receive(comm)
    assert error == {
        "type": "error",
        "code": "not_a_player",
        "message": "Observers cannot act in this game.",
        "request": "place",
    }
    await comm.disconnect()


async def test_anonymous_observer_without_cookie():
    gid, _, _ = await new_game()
    comm = await connect(f"/ws/games/{gid}/")
    assert (await receive(comm))["role"] == 2
    await comm.send_json_to({"type": "join", "seat": None})
    assert (await receive(comm))["code"] == "no_identity"
    await comm.disconnect()


async def test_unknown_game_closes_4404():
    comm = await connect("/ws/games/doesnotexist/")
    error = await receive(comm)
    assert error["type"] == "error" and error["code"] == "not_found"
    assert (await comm.receive_output(timeout=CONNECT_TIMEOUT))["code"] == 4404
    await comm.disconnect()


@pytest.mark.parametrize(
    "path",
    ["/ws/games/a.b/", f"/ws/games/{'x' * 40}/", "/ws/games/abc", "/ws/nothing/", "/", "/ws/lobby"],
)
async def test_a_path_without_a_route_gets_not_found_and_4404(path, caplog):
    caplog.set_level(logging.WARNING)
    comm = await connect(path)
    error = await receive(comm)
    assert error["type"] == "error" and error["code"] == "not_found" and path in error["message"]
    closed = await comm.receive_output(timeout=CONNECT_TIMEOUT)
    assert closed == {"type": "websocket.close", "code": 4404}
    await comm.disconnect()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_path_without_a_route_still_checks_the_origin():
    comm = socket("/ws/nothing/", origin=False)
    connected, _ = await comm.connect(timeout=CONNECT_TIMEOUT)
    assert not connected


async def test_origin_is_checked():
    gid, _, _ = await new_game()
    for headers in ([], [(b"origin", b"http://evil.example")]):
        comm = socket(f"/ws/games/{gid}/")
        comm.scope["headers"] = headers
        connected, _ = await comm.connect(timeout=CONNECT_TIMEOUT)
        assert not connected


async def test_actions_reach_both_players_with_their_own_ranks():
    gid, red, blue = await new_game()
    red_ws = await connect(f"/ws/games/{gid}/", red)
    blue_ws = await connect(f"/ws/games/{gid}/", blue)
    await receive(red_ws), await receive(blue_ws)
    await red_ws.send_json_to({"type": "place", "square": 7, "rank": engine.MARSHAL})
    mine, theirs = await receive(red_ws), await receive(blue_ws)
    assert mine["type"] == theirs["type"] == "event" and mine["version"] == theirs["version"] == 3
    assert mine["event"] == {
        "kind": "placed", "color": 0, "square": 7, "rank": engine.MARSHAL, "placed": 1
    }  # fmt: skip
    assert theirs["event"] == {"kind": "placed", "color": 0, "placed": 1}  # not where
    assert theirs["view"]["board"][7] is None and theirs["view"]["placed"] == [1, 0]
    assert mine["view"]["board"][7]["rank"] == engine.MARSHAL
    await red_ws.disconnect()
    await blue_ws.disconnect()


async def test_a_seat_works_from_two_tabs():
    gid, red, _ = await new_game()
    tab1 = await connect(f"/ws/games/{gid}/", red)
    tab2 = await connect(f"/ws/games/{gid}/", red)
    assert (await receive(tab1))["role"] == (await receive(tab2))["role"] == 0
    await tab2.send_json_to({"type": "place", "square": 7, "rank": engine.MARSHAL})
    assert (await receive(tab1))["event"]["rank"] == engine.MARSHAL
    await tab1.disconnect()
    await tab2.disconnect()


async def test_join_over_the_socket_turns_an_observer_into_a_player():
    red = await adb(make_guest)("red")
    game = await adb(services.create_game)(red, variant="mini", seat=0)
    blue = await adb(make_guest)("blue")
    comm = await connect(f"/ws/games/{game.public_id}/", blue)
    assert (await receive(comm))["role"] == 2
    await comm.send_json_to({"type": "join", "seat": 1})
    event = await receive(comm)
    assert event["event"] == {"kind": "seated", "seat": 1, "name": "blue"}
    assert event["view"]["viewer"] == 1 and event["game"]["status"] == "setup"
    await comm.disconnect()


async def test_join_with_a_seat_other_than_0_1_or_null_is_refused(caplog):
    caplog.set_level(logging.WARNING)
    red = await adb(make_guest)("red")
    game = await adb(services.create_game)(red, variant="mini", seat=0)
    comm = await connect(f"/ws/games/{game.public_id}/", await adb(make_guest)("blue"))
    state = await receive(comm)
    for seat in (2, -1, 5):
        await comm.send_json_to({"type": "join", "seat": seat})
        error = await receive(comm)
        assert (error["type"], error["code"], error["request"]) == ("error", "bad_seat", "join")
    await comm.send_json_to({"type": "sync", "version": -1})
    fresh = await receive(comm)
    assert fresh["version"] == state["version"] and fresh["game"]["seats"][1] is None
    assert fresh["role"] == 2
    await comm.disconnect()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_sync_sends_missed_events_or_a_fresh_state():
    gid, red, _ = await new_game()
    for square, rank in ((5, engine.MINER), (6, engine.CAPTAIN), (7, engine.MARSHAL)):
        await adb(services.place_piece)(gid, red, square, rank)
    comm = await connect(f"/ws/games/{gid}/?version=2", red)
    frames = [await receive(comm) for _ in range(3)]
    assert [f["version"] for f in frames] == [3, 4, 5]
    assert "view" not in frames[0] and "view" in frames[2]
    await comm.send_json_to({"type": "sync", "version": 4})
    frame = await receive(comm)
    assert frame["version"] == 5 and frame["event"]["kind"] == "placed"
    await comm.send_json_to({"type": "sync", "version": 999})
    assert (await receive(comm))["type"] == "state"
    await comm.send_json_to({"type": "sync", "version": 5})
    await comm.send_json_to({"type": "ping"})
    assert await receive(comm) == {"type": "pong"}
    await comm.disconnect()


async def test_spectator_count_is_broadcast():
    gid, red, _ = await new_game()
    player = await connect(f"/ws/games/{gid}/", red)
    assert (await receive(player))["game"]["spectators"] == 0
    watcher = await connect(f"/ws/games/{gid}/")
    assert await receive(player, skip=()) == {"type": "spectators", "count": 1}
    assert (await receive(watcher))["game"]["spectators"] == 1
    await watcher.disconnect()
    assert await receive(player, skip=()) == {"type": "spectators", "count": 0}
    await player.disconnect()


BAD_FRAMES = [
    ("not json at all", "bad_json"),
    ("[1, 2, 3]", "bad_json"),
    ('"a string"', "bad_json"),
    ("{}", "unknown_type"),
    ('{"type": 5}', "unknown_type"),
    ('{"type": "teleport"}', "unknown_type"),
    ('{"type": "place", "square": "7", "rank": 10}', "bad_field"),
    ('{"type": "place", "square": 7}', "bad_field"),
    ('{"type": "place", "square": true, "rank": 10}', "bad_field"),
    ('{"type": "place", "square": 1e400, "rank": 10}', "bad_field"),
    ('{"type": "move", "from": 7, "to": 99999999999999999999}', "bad_field"),
    ('{"type": "move", "from": null, "to": 12}', "bad_field"),
    ('{"type": "sync", "version": "x"}', "bad_field"),
    ('{"type": "place", "square": -1, "rank": 10}', "off_board"),
    ('{"type": "place", "square": 7, "rank": 99}', "unknown_rank"),
    ('{"type": "move", "from": 7, "to": 12}', "not_playing"),
    ('{"type": "ready"}', "incomplete"),
    ('{"type": "join", "seat": 1}', "already_seated"),
    ('{"type": "accept_draw"}', "not_playing"),
    ("[" * 5000, None),
]


async def test_bad_frames_get_error_frames_and_no_logged_exception(caplog):
    caplog.set_level(logging.WARNING)
    gid, red, _ = await new_game()
    comm = await connect(f"/ws/games/{gid}/", red)
    state = await receive(comm)
    for text, code in BAD_FRAMES:
        if code is None:
            continue
        await comm.send_to(text_data=text)
        frame = await receive(comm)
        assert frame["type"] == "error" and frame["code"] == code, (text, frame)
        assert frame["message"]
    await comm.send_to(bytes_data=b"\x00\x01")
    assert (await receive(comm))["code"] == "bad_json"
    deep = "[" * 2000 + "]" * 2000
    await comm.send_to(text_data=deep)
    assert (await receive(comm))["code"] == "bad_json"
    await comm.send_json_to({"type": "sync", "version": 0})
    assert (await receive(comm))["type"] == "event"  # ... the game is unchanged:
    await comm.send_json_to({"type": "sync", "version": -1})
    fresh = await receive(comm)
    assert fresh["version"] == state["version"] and fresh["view"] == state["view"]
    await comm.disconnect()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_oversized_frame_closes_4009(caplog):
    gid, red, _ = await new_game()
    comm = await connect(f"/ws/games/{gid}/", red)
    await receive(comm)
    await comm.send_to(text_data=json.dumps({"type": "ping", "pad": "x" * 5000}))
    closed = await comm.receive_output(timeout=CONNECT_TIMEOUT)
    assert closed == {"type": "websocket.close", "code": 4009}
    await comm.disconnect()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_flood_closes_4008(caplog):
    gid, red, _ = await new_game()
    comm = await connect(f"/ws/games/{gid}/", red)
    await receive(comm)
    for _ in range(60):
        await comm.send_json_to({"type": "ping"})
    frames = []
    while True:
        out = await comm.receive_output(timeout=CONNECT_TIMEOUT)
        if out["type"] == "websocket.close":
            break
        frames.append(json.loads(out["text"]))
    assert out["code"] == 4008
    assert frames[-1]["code"] == "rate_limited"
    assert 30 <= sum(f["type"] == "pong" for f in frames) <= 45
    await comm.disconnect()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
