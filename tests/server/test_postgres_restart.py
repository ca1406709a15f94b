"""PostgreSQL restarts under a running game: on a real daphne whose database is a cluster of
the test's own, the players get the coded error `unavailable` (and pages 503) while it is
away, the server's pool reconnects by itself once it is back, and the game goes on; the log
holds no traceback."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from games.domain.identity import Identity

from .daphne import ROOT, Daphne, assert_clean_log
from .private_postgres import PrivatePostgres
from .test_bounded_connections import SECRET_KEY, get, production
from .test_idle_sockets import frames_until, is_move, open_socket


@pytest.fixture
def cluster():
    server = PrivatePostgres().init()
    try:
        yield server
    finally:
        server.remove()


def migrate_and_set_up(url: str) -> tuple[str, Identity, Identity]:
    env = {"DJANGO_SETTINGS_MODULE": "stratego_site.settings", "DATABASE_URL": url,
           "SECRET_KEY": SECRET_KEY, "PATH": "/usr/bin:/bin"}  # fmt: skip
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                   env=env, check=True)  # fmt: skip
    out = subprocess.run([sys.executable, "-m", "tests.server.private_game"], cwd=ROOT, env=env,
                         check=True, capture_output=True, text=True).stdout  # fmt: skip
    gid, red, blue = json.loads(out.strip().splitlines()[-1])
    return gid, Identity(None, red, "red"), Identity(None, blue, "blue")


def move_until_accepted(ws, start: int, to: int, ply: int, timeout: float = 30) -> list[str]:
    """Send the move until the server takes it; the error codes it answered meanwhile."""
    deadline, codes = time.monotonic() + timeout, []
    while time.monotonic() < deadline:
        ws.send(json.dumps({"type": "move", "from": start, "to": to}))
        frame = frames_until(ws, lambda f: f["type"] == "error" or is_move(ply)(f), timeout=15)
        if frame["type"] != "error":
            return codes
        codes.append(frame["code"])
        time.sleep(0.5)
    raise AssertionError(f"the move never went through: {codes}")


def test_a_postgres_restart_mid_game(cluster, tmp_path):
    gid, red, blue = migrate_and_set_up(cluster.url())
    env = production("restart", DATABASE_URL=cluster.url(), DATABASE_POOL_TIMEOUT="1")
    server = Daphne(tmp_path / "daphne.log", env=env).start()
    base = f"http://127.0.0.1:{server.port}"
    try:
        with open_socket(server, gid, red) as red_ws, open_socket(server, gid, blue) as blue_ws:
            frames_until(red_ws, lambda f: f["type"] == "state")
            frames_until(blue_ws, lambda f: f["type"] == "state")
            cluster.stop()
            red_ws.send(json.dumps({"type": "move", "from": 7, "to": 12}))
            refused = frames_until(red_ws, lambda f: f["type"] == "error")
            assert refused["code"] == "unavailable" and refused["request"] == "move"
            status, headers, _ = get(base + "/players/")
            assert status == 503 and headers["Retry-After"]
            cluster.start()
            codes = move_until_accepted(red_ws, 7, 12, ply=1)
            assert set(codes) <= {"unavailable"}
            frames_until(blue_ws, is_move(1))
            blue_ws.send(json.dumps({"type": "move", "from": 15, "to": 10}))
            frames_until(red_ws, is_move(2))
            assert get(base + "/players/")[0] == 200
    finally:
        server.stop()
    assert_clean_log(server.log_text())
