"""A Java client written with DataOutputStream/DataInputStream plays a whole game against
the Python client through the TCP door."""

from __future__ import annotations

import pytest

from games.domain.models import Game
from tests.server.conftest import adb, fresh_channel_layer, no_heartbeat_after_the_test  # noqa: F401

from .java_player import JavaPlayer, compile_client
from .legacy_script import whole_game
from .legacy_server import HOST, client, legacy_server

pytestmark = pytest.mark.django_db(transaction=True)  # (javac missing: the test fails)


async def test_a_java_client_plays_a_whole_game(tmp_path):
    classes = compile_client(tmp_path)
    async with legacy_server() as server:
        java = await JavaPlayer.start(classes, HOST, server.port)
        try:
            python = await client(server)
            await whole_game(java, python, "duke", "guido")
            assert await java.closed()
        finally:
            await java.stop()
    game = await adb(lambda: Game.objects.filter(red_name="duke").get())()
    assert (game.blue_name, game.winner, game.termination) == ("guido", 0, "flag_captured")
