"""Presence follows the socket's real life: a consumer that dies without its disconnect (an
exception, a cancel) leaves no ghost, so a claim against the vanished player works; a send
to a socket that is closing is not an error."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from autobahn.exception import Disconnected

from games import services
from games.domain import options
from games.domain.models import BLUE, Game, Presence
from games.transport import presence
from games.transport.consumers import GameConsumer

from .conftest import adb, connect, receive
from .helpers import set_up_game

pytestmark = pytest.mark.django_db(transaction=True)


def rows(gid: str) -> int:
    return Presence.objects.filter(game__public_id=gid).count()


async def wait_for(condition, timeout: float = 10.0) -> bool:
    for _ in range(int(timeout / 0.05)):
        if await adb(condition)():
            return True
        await asyncio.sleep(0.05)
    return False


def blue_left(gid: str):
    return Game.objects.get(public_id=gid).blue_left


def backdate_blue_left(gid: str) -> None:
    back = timedelta(seconds=options.ABANDON_SECONDS + 1)
    game = Game.objects.get(public_id=gid)
    Game.objects.filter(public_id=gid).update(
        blue_left=game.blue_left - back, setup_started=game.setup_started - back
    )


@pytest.mark.asyncio
async def test_a_consumer_that_crashes_leaves_no_ghost_and_can_be_claimed_against(monkeypatch):
    gid, red, blue = await adb(set_up_game)()
    red_ws = await connect(f"/ws/games/{gid}/", red)
    blue_ws = await connect(f"/ws/games/{gid}/", blue)
    for ws in (red_ws, blue_ws):
        assert (await receive(ws))["type"] == "state"
    assert await wait_for(lambda: rows(gid) == 2)

    original = GameConsumer.game_frames

    async def crash_blue(self, event):
        if self.role == BLUE:
            raise RuntimeError("the consumer dies (as on a Redis error in the middle of it)")
        await original(self, event)

    monkeypatch.setattr(GameConsumer, "game_frames", crash_blue)
    await red_ws.send_json_to({"type": "offer_draw"})
    assert await wait_for(lambda: rows(gid) == 1), "the dead consumer's row went"
    game_pk = (await adb(Game.objects.get)(public_id=gid)).pk
    assert BLUE not in await adb(presence.players_connected)(game_pk)
    assert await wait_for(lambda: blue_left(gid) is not None), "Blue counts as gone"
    monkeypatch.setattr(GameConsumer, "game_frames", original)

    await adb(backdate_blue_left)(gid)  # the claim waits ABANDON_SECONDS; skip them
    await adb(services.claim_victory)(gid, red)
    game = await adb(Game.objects.get)(public_id=gid)
    assert (game.termination, game.winner) == ("forfeit", 0)
    await red_ws.disconnect()
    with pytest.raises(RuntimeError):
        await blue_ws.wait()


@pytest.mark.asyncio
async def test_a_consumer_that_ended_without_leaving_is_dropped_by_the_next_beat(monkeypatch):
    """Per socket, not per process: the process still runs (and beats), but Blue's consumer
    has ended without its leave; the next beat drops Blue's socket instead of re-stamping it,
    and Blue counts as gone."""
    gid, red, blue = await adb(set_up_game)()
    red_ws = await connect(f"/ws/games/{gid}/", red)
    blue_ws = await connect(f"/ws/games/{gid}/", blue)
    for ws in (red_ws, blue_ws):
        assert (await receive(ws))["type"] == "state"
    assert await wait_for(lambda: rows(gid) == 2)

    original = GameConsumer.leave_game

    async def no_leave(self):  # as if the leave never ran (it failed, or was never reached)
        self.cancel_checks()

    monkeypatch.setattr(GameConsumer, "leave_game", no_leave)
    await blue_ws.disconnect()  # Blue's consumer ends
    monkeypatch.setattr(GameConsumer, "leave_game", original)
    assert await adb(rows)(gid) == 2 and await adb(blue_left)(gid) is None  # not noticed yet

    await adb(presence.beat)()
    assert await adb(rows)(gid) == 1
    game_pk = (await adb(Game.objects.get)(public_id=gid)).pk
    assert await adb(presence.players_connected)(game_pk) == {0}
    assert await adb(blue_left)(gid) is not None, "Blue counts as gone"
    await adb(presence.beat)()
    assert await adb(rows)(gid) == 1, "Red's live socket is still re-stamped"
    await red_ws.disconnect()


@pytest.mark.asyncio
async def test_a_send_to_a_closing_socket_is_not_an_error():
    consumer = GameConsumer()

    async def closed_protocol(message):
        raise Disconnected("Attempt to send on a closed protocol")

    consumer.base_send = closed_protocol
    await consumer.send_json({"type": "pong"})  # no exception
    assert consumer.closed
    await consumer.send_json({"type": "pong"})  # and nothing more is tried
