"""The Java client (DataOutputStream frames) and the Python client play the legacy protocol's whole
game
through the TCP door that a real daphne serves in its own process (LEGACY_PORT): on the
embedded default (SQLite file, in-memory layer) and on PostgreSQL + Redis."""

from __future__ import annotations

import asyncio

import pytest

from games.domain.models import Game
from games.transport.legacy.client import LegacyClient
from tests.server.conftest import adb, fresh_channel_layer, no_heartbeat_after_the_test  # noqa: F401
from tests.server.daphne import Daphne, free_port, wait_for_port

from .embedded import EmbeddedDaphne, manage
from .java_player import JavaPlayer, compile_client
from .legacy_script import whole_game

HOST = "127.0.0.1"
QUERY = (
    "from games.models import Game; g = Game.objects.get(red_name='jduke'); "
    "print(g.blue_name, g.status, g.winner, g.termination, g.moves.count())"
)


async def java_against_python(port: int, classes) -> None:  # (a Path)
    java = await JavaPlayer.start(classes, HOST, port)
    try:
        python = await LegacyClient.connect(HOST, port)
        await whole_game(java, python, "jduke", "pyguido")
        assert await java.closed() and await python.closed()
    finally:
        await java.stop()


async def test_on_the_embedded_default(tmp_path):
    classes = compile_client(tmp_path)
    server = EmbeddedDaphne(tmp_path).start()
    try:
        await asyncio.wait_for(java_against_python(server.legacy_port, classes), 180)
        stored = manage(server.env, "shell", "-v", "0", "-c", QUERY).split()
    finally:
        server.stop()
    assert stored == ["pyguido", "finished", "0", "flag_captured", "5"]
    assert "Traceback" not in server.log_text()


@pytest.mark.django_db(transaction=True)
async def test_on_postgresql_and_redis(tmp_path):
    classes = compile_client(tmp_path)
    legacy_port = free_port()
    server = Daphne(tmp_path / "daphne.log", env={"LEGACY_PORT": str(legacy_port)}).start()
    try:
        await asyncio.to_thread(wait_for_port, legacy_port, server.proc)
        await asyncio.wait_for(java_against_python(legacy_port, classes), 180)
    finally:
        server.stop()
    game = await adb(Game.objects.get)(red_name="jduke")
    assert (game.blue_name, game.winner, game.termination) == ("pyguido", 0, "flag_captured")
    assert "Traceback" not in server.log_text()
