"""`manage.py serve_legacy` as its own process on the embedded default (SQLite and the
in-memory channel layer, nothing else running): two clients play the whole game."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.transport.legacy.client import LegacyClient
from tests.server.conftest import fresh_channel_layer, no_heartbeat_after_the_test  # noqa: F401
from tests.server.daphne import free_port

from .embedded import migrated_database
from .legacy_script import whole_game

ROOT = Path(__file__).resolve().parents[2]


def embedded_env(tmp_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="stratego_site.settings",
        SQLITE_PATH=str(tmp_path / "embedded.sqlite3"),
        DEBUG="true",
    )
    return env


async def wait_for_port(port: int, process: subprocess.Popen) -> None:
    for _ in range(200):
        assert process.poll() is None, process.stderr.read()
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        writer.close()
        return
    raise AssertionError("serve_legacy did not start")


@pytest.fixture
def embedded_server(tmp_path):
    env = embedded_env(tmp_path)
    manage = [sys.executable, str(ROOT / "manage.py")]
    migrated_database(env)
    port = free_port()
    process = subprocess.Popen(
        [*manage, "serve_legacy", "--port", str(port), "--grace", "5"],
        env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    yield port, process, env
    process.terminate()
    stdout, stderr = process.communicate(timeout=20)
    assert "Traceback" not in stderr, stderr
    assert "note: the channel layer is in memory" in stdout  # (pages would not see it live)


async def test_the_tcp_door_runs_on_the_embedded_default(embedded_server):
    port, process, env = embedded_server
    await wait_for_port(port, process)
    red = await LegacyClient.connect("127.0.0.1", port)
    blue = await LegacyClient.connect("127.0.0.1", port)
    await whole_game(red, blue, "sqlite_red", "sqlite_blue")
    query = (
        "from games.models import Game; g = Game.objects.get(red_name='sqlite_red'); "
        "print(g.status, g.winner, g.termination, g.moves.count())"
    )
    shell = [sys.executable, str(ROOT / "manage.py"), "shell", "-v", "0", "-c", query]
    out = subprocess.run(shell, env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["finished", "0", "flag_captured", "5"], out.stderr
