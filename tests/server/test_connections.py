"""A process holds a bounded number of database connections whatever its number of sockets:
a move watched by twenty sockets opens no new PostgreSQL session (each used to open one per
socket per move)."""

from __future__ import annotations

import contextlib
import json
import time

import pytest
from django.db import connection

from .conftest import SHORT_GAME
from .daphne import Daphne, assert_clean_log
from .helpers import set_up_game

pytestmark = pytest.mark.django_db(transaction=True)

WATCHERS = 20


def sessions_opened() -> int:
    """PostgreSQL sessions ever opened on the test database (its statistics)."""
    time.sleep(1.5)  # backends report their statistics at most once a second
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return cursor.fetchone()[0]


def test_moves_watched_by_many_sockets_open_no_database_session(tmp_path):
    env = {"WS_CONNECT_BURST": "100", "WS_SOCKETS_PER_ADDRESS": "100"}
    server = Daphne(tmp_path / "daphne.log", env=env).start()
    try:
        gid, red, blue = set_up_game()
        url = server.url(f"/ws/games/{gid}/")
        with contextlib.ExitStack() as stack:
            from websockets.sync.client import connect

            def open_ws(ident=None):
                headers = dict(server.origin)
                if ident is not None:
                    headers["Cookie"] = f"sessionid={ident.session_key}"
                return stack.enter_context(connect(url, additional_headers=headers))

            players = {0: open_ws(red), 1: open_ws(blue)}
            watchers = [open_ws() for _ in range(WATCHERS)]
            everyone = [*players.values(), *watchers]
            versions = [json.loads(ws.recv(timeout=10))["version"] for ws in everyone]
            version = max(versions)
            before = sessions_opened()
            for color, frm, to in SHORT_GAME[:4]:
                players[color].send(json.dumps({"type": "move", "from": frm, "to": to}))
                version += 1
                for ws in everyone:
                    while json.loads(ws.recv(timeout=10)).get("version") != version:
                        pass
            after = sessions_opened()
        assert after - before <= 2, (before, after)  # (the heartbeat's own, at most)
    finally:
        server.stop()
    assert_clean_log(server.log_text())
