"""A server restart loses nothing: a new application instance goes on from the database."""

from __future__ import annotations

import pytest
from channels.layers import channel_layers

from games import engine, services
from games.domain.models import Game
from stratego_site.asgi import build_application

from .conftest import SHORT_GAME, adb, connect, receive
from .helpers import set_up_game

pytestmark = pytest.mark.django_db(transaction=True)


async def test_the_game_goes_on_after_a_restart():
    gid, red, blue = await adb(set_up_game)()
    first = build_application()
    red_ws = await connect(f"/ws/games/{gid}/", red, first)
    state = await receive(red_ws)
    await red_ws.send_json_to({"type": "move", "from": 7, "to": 12})
    moved = await receive(red_ws)
    assert moved["event"]["kind"] == "move"
    await red_ws.disconnect()

    channel_layers.backends.clear()  # a new process: new layer, new app, only the DB remains
    second = build_application()
    red_ws = await connect(f"/ws/games/{gid}/?version={state['version']}", red, second)
    missed = await receive(red_ws)
    assert missed["version"] == moved["version"] and missed["event"] == moved["event"]
    # Red's socket closed and a new one came: both are numbered events for everybody.
    gone_and_back = [(await receive(red_ws))["event"] for _ in range(2)]
    assert [e["kind"] for e in gone_and_back] == ["absent", "present"]
    blue_ws = await connect(f"/ws/games/{gid}/", blue, second)
    fresh = await receive(blue_ws)
    assert fresh["type"] == "state" and fresh["view"]["ply"] == 1 and fresh["view"]["turn"] == 1
    players = {0: red_ws, 1: blue_ws}
    for color, frm, to in SHORT_GAME[1:]:
        await players[color].send_json_to({"type": "move", "from": frm, "to": to})
        assert (await receive(players[color]))["event"]["kind"] == "move"
        assert (await receive(players[1 - color]))["event"]["kind"] == "move"
    game = await adb(Game.objects.get)(public_id=gid)
    assert (game.status, game.termination, game.ply) == ("finished", "flag_captured", 5)
    await red_ws.disconnect()
    await blue_ws.disconnect()


def test_engine_state_round_trips_through_the_database():
    gid, red, _ = set_up_game()
    services.move(gid, red, 7, 12)
    game = Game.objects.get(public_id=gid)
    reloaded = engine.Game.from_dict(game.state)
    assert reloaded.ply == 1 and reloaded.to_dict() == game.state
