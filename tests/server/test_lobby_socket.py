"""The lobby socket: lists on connect and on every change, spectator counts, bad input."""

from __future__ import annotations

import logging

import pytest

from games import services

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
