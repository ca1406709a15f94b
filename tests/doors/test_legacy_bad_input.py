"""Bad input on the TCP door: the connection that sent it closes, everyone else plays on."""

from __future__ import annotations

import asyncio
import struct

import pytest

from games.domain.models import Game
from games.transport.legacy import frames as f
from tests.server.conftest import adb, fresh_channel_layer, no_heartbeat_after_the_test  # noqa: F401

from .legacy_script import expect, play_phase, setup_phase, sign_on
from .legacy_server import client, legacy_server

pytestmark = pytest.mark.django_db(transaction=True)


def game_of(red_name: str) -> Game:
    return Game.objects.filter(red_name=red_name).order_by("-pk").first()


async def closes_after(server, data: bytes, sign_on_as: str | None = None) -> None:
    bad = await client(server)
    if sign_on_as:
        await bad.sign_on(sign_on_as)
        await expect(bad, f.WAIT, "wait")
    bad.writer.write(data)
    assert await bad.closed(timeout=10)


BAD_FRAMES = {
    "unknown type": struct.pack(">i", 99) + b"junk",
    "negative type": struct.pack(">i", -1),
    "a string longer than 1 KiB": struct.pack(">iH", f.SIGN_ON, 2000) + b"a" * 2000,
    "truncated (the rest never comes)": struct.pack(">i", f.SETUP) + b"\x00",
    "malformed modified UTF-8": struct.pack(">iH", f.SIGN_ON, 2) + b"\xff\xfe",
    "a move before signing on": f.ints_frame(f.MOVE, 0, 3, 0, 4),
}


async def test_bad_frames_close_only_their_connection_and_the_game_goes_on():
    async with legacy_server(frame_timeout=1.0) as server:
        red, blue = await client(server), await client(server)
        await sign_on(red, blue, "amy", "bill")
        await setup_phase(red, blue, "amy")
        before = await adb(game_of)("amy")
        for data in BAD_FRAMES.values():
            await closes_after(server, data)
        await closes_after(server, f.ints_frame(f.MOVE, 0, 0, 0, 1) * 300, sign_on_as="flood")
        await aborted("flood")  # its waiting game ended when it was dropped
        await closes_after(server, struct.pack(">i", 42), sign_on_as="late")
        await aborted("late")
        mid = await adb(game_of)("amy")
        assert (mid.version, mid.state) == (before.version, before.state)
        await play_phase(red, blue, "amy", "bill")


async def aborted(name: str) -> None:
    for _ in range(100):
        if (await adb(game_of)(name)).status == "aborted":
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"{name}'s game was not aborted")


async def test_a_truncated_frame_then_a_closed_socket_changes_nothing():
    async with legacy_server() as server:
        bad = await client(server)
        bad.writer.write(struct.pack(">iH", f.SIGN_ON, 10) + b"abc")
        await bad.close()
        good = await client(server)
        await good.sign_on("abc")  # the truncated sign-on never took the name
        await expect(good, f.WAIT, "wait")
        await good.close()
        await asyncio.sleep(0.5)
    assert await adb(lambda: Game.objects.filter(red_name__startswith="abc").count())() == 1


async def test_a_taken_name_gets_placement_invalid_and_may_sign_on_again():
    async with legacy_server() as server:
        first, second = await client(server), await client(server)
        await first.sign_on("zoe")
        await expect(first, f.WAIT, "wait")
        for name in ("zoe", "", " " * 3, "x" * 151):
            await second.sign_on(name)
            await expect(second, f.PLACEMENT_INVALID, "invalid")
        await second.sign_on("zed")
        await expect(second, f.CONNECTED, "connected")
        await expect(first, f.CONNECTED, "connected")


async def test_a_player_who_leaves_loses_after_the_grace_period():
    async with legacy_server(grace=1.0) as server:
        red, blue = await client(server), await client(server)
        await sign_on(red, blue, "rita", "bo")
        await blue.close()
        await expect(red, f.GAME_OVER, "rita")
    game = await adb(game_of)("rita")
    assert (game.status, game.winner, game.termination) == ("finished", 0, "forfeit")


async def test_a_player_back_within_the_grace_period_keeps_the_seat():
    async with legacy_server(grace=30.0) as server:
        red, blue = await client(server), await client(server)
        await sign_on(red, blue, "rex", "bea")
        await blue.setup("F", 0, 9)
        await expect(blue, f.PLACEMENT_VALID, "valid")
        await blue.close()
        back = await client(server)
        for _ in range(50):  # her name is taken until the server has seen her leave (retry,
            await back.sign_on("bea")  # as docs/legacy-protocol.md says; 0.3 s was too short
            answer = await back.read()  # under the parallel suite)
            if answer != (f.PLACEMENT_INVALID, "invalid"):
                break
            await asyncio.sleep(0.1)
        assert answer == (f.CONNECTED, "connected"), answer
        await back.setup("F", 1, 9)  # her flag stands at (0, 9) already
        await expect(back, f.PLACEMENT_INVALID, "invalid")
        await back.setup("B", 1, 9)
        await expect(back, f.PLACEMENT_VALID, "valid")
    game = await adb(game_of)("rex")
    assert game.status == "setup" and game.blue_name == "bea"


async def test_a_waiting_player_who_leaves_aborts_the_game_at_once():
    async with legacy_server() as server:
        lone = await client(server)
        await lone.sign_on("solo")
        await expect(lone, f.WAIT, "wait")
        await lone.close()
        for _ in range(50):
            game = await adb(game_of)("solo")
            if game.status == "aborted":
                break
            await asyncio.sleep(0.1)
    assert game.status == "aborted"
