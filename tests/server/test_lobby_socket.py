"""The lobby socket: lists on connect and on every change, spectator counts, bad input."""

from __future__ import annotations

import logging

import pytest
from channels.layers import get_channel_layer
from django.db import OperationalError

from games import services
from games.services import snapshots
from games.transport.broadcast import LOBBY_GROUP

from .conftest import adb, connect, make_guest, receive

pytestmark = pytest.mark.django_db(transaction=True)


async def next_lists(lobby, predicate):
    while True:
        lists = await receive(lobby)
        assert lists["type"] == "lobby"
        if predicate(lists):
            return lists


async def test_lobby_lists_follow_the_games(caplog):
    lobby = await connect("/ws/lobby/")
    first = await receive(lobby)
    assert first == {"type": "lobby", "waiting": [], "live": [], "finished": []}
    red = await adb(make_guest)("red")
    game = await adb(services.create_game)(red, variant="mini", seat=0)
    await adb(services.create_game)(await adb(make_guest)(), variant="mini", private=True)
    lists = await next_lists(lobby, lambda x: x["waiting"])
    assert [g["id"] for g in lists["waiting"]] == [game.public_id]
    await adb(services.join_game)(game.public_id, await adb(make_guest)("blue"))
    lists = await next_lists(lobby, lambda x: x["live"])
    assert lists["live"][0]["seats"][1]["name"] == "blue" and lists["waiting"] == []

    watcher = await connect(f"/ws/games/{game.public_id}/")
    lists = await next_lists(lobby, lambda x: x["live"][0]["spectators"] == 1)
    await watcher.disconnect()
    lists = await next_lists(lobby, lambda x: x["live"][0]["spectators"] == 0)

    await adb(services.resign)(game.public_id, red)
    lists = await next_lists(lobby, lambda x: x["finished"])
    assert lists["finished"][0]["result"] == {"winner": 1, "termination": "resignation"}

    await lobby.send_json_to({"type": "ping"})
    assert await receive(lobby) == {"type": "pong"}
    await lobby.send_json_to({"type": "move", "from": 1, "to": 2})
    assert (await receive(lobby))["code"] == "unknown_type"
    await lobby.send_to(text_data="{oops")
    assert (await receive(lobby))["code"] == "bad_json"
    await lobby.send_to(text_data="x" * 5000)
    assert (await lobby.receive_output(timeout=10))["code"] == 4009
    await lobby.disconnect()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_nudge_the_database_cannot_serve_is_told_not_raised(monkeypatch, caplog):
    """A lobby socket whose refresh finds no free database connection gets the coded error
    `unavailable`, stays open, and refreshes at the next change."""
    lobby = await connect("/ws/lobby/")
    await receive(lobby)
    real = snapshots.lobby_lists

    def dry_pool() -> dict:
        raise OperationalError("couldn't get a connection after 5.00 sec")

    monkeypatch.setattr(snapshots, "lobby_lists", dry_pool)
    await get_channel_layer().group_send(LOBBY_GROUP, {"type": "lobby.nudge"})
    refused = await receive(lobby)
    assert refused["type"] == "error" and refused["code"] == "unavailable"
    monkeypatch.setattr(snapshots, "lobby_lists", real)
    await get_channel_layer().group_send(LOBBY_GROUP, {"type": "lobby.nudge"})
    assert (await receive(lobby))["type"] == "lobby"
    await lobby.disconnect()
    assert "database unavailable (lobby.nudge)" in caplog.text
    assert "Traceback" not in caplog.text and not [r for r in caplog.records if r.exc_info]


async def test_the_lobby_sockets_of_a_process_share_one_read(monkeypatch):
    """Twenty lobby sockets open and then all nudged: each gets the lists, and the database
    is read once for the openings and once for the nudge, not once a socket."""
    reads = []
    real = snapshots.lobby_lists

    def counted() -> dict:
        reads.append(1)
        return real()

    monkeypatch.setattr(snapshots, "lobby_lists", counted)
    lobbies = [await connect("/ws/lobby/") for _ in range(20)]
    for lobby in lobbies:
        assert (await receive(lobby))["type"] == "lobby"
    opened = len(reads)
    await get_channel_layer().group_send(LOBBY_GROUP, {"type": "lobby.nudge"})
    for lobby in lobbies:
        assert (await receive(lobby))["type"] == "lobby"
    assert opened == 1 and len(reads) == 2
    for lobby in lobbies:
        await lobby.disconnect()


async def test_a_lobby_opened_after_the_last_one_closed_reads_afresh():
    """Nudges reach open lobby sockets only: once the last one closed, a change made
    meanwhile is in the next socket's first lists, however recent the last read."""
    first = await connect("/ws/lobby/")
    assert (await receive(first))["waiting"] == []
    await first.disconnect()
    game = await adb(services.create_game)(await adb(make_guest)("ada"), variant="mini", seat=0)
    second = await connect("/ws/lobby/")
    assert [g["id"] for g in (await receive(second))["waiting"]] == [game.public_id]
    await second.disconnect()


async def test_a_slow_read_spaces_the_next_one_ten_times_as_long(monkeypatch):
    """A read of the lobby that took 0.2 s (a busy process) is followed by the next one 2 s
    after its start, not 0.5 s: the reads keep to a tenth of the process's time, and the
    sockets still get the change."""
    import time

    from games.transport import lobby_feed

    starts: list[float] = []
    real = snapshots.lobby_lists

    def slow() -> dict:
        starts.append(time.monotonic())
        time.sleep(0.2)
        return real()

    monkeypatch.setattr(snapshots, "lobby_lists", slow)
    lobby = await connect("/ws/lobby/")
    assert (await receive(lobby))["type"] == "lobby"
    await get_channel_layer().group_send(LOBBY_GROUP, {"type": "lobby.nudge"})
    assert (await receive(lobby, timeout=10))["type"] == "lobby"
    assert len(starts) == 2
    assert 0.2 / lobby_feed.READ_SHARE - 0.05 <= starts[1] - starts[0] <= lobby_feed.MAX_SPACING
    assert lobby_feed.spacing_after(0.01) == lobby_feed.READ_INTERVAL
    assert lobby_feed.spacing_after(60) == lobby_feed.MAX_SPACING
    await lobby.disconnect()
