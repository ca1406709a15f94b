"""On a real daphne and the real Redis layer: a socket that receives nothing for a minute
stays open and gets the next move (redis-py 8's 5 s read timeout used to close it with 1011
and a traceback every 5 s). Redis restarts: tests/server/test_redis_restart.py."""

from __future__ import annotations

import json
import time

import pytest
from websockets.sync.client import connect as ws_connect

from .daphne import Daphne, assert_clean_log
from .helpers import set_up_game

pytestmark = pytest.mark.django_db(transaction=True)

IDLE_SECONDS = 60


@pytest.fixture
def daphne(tmp_path):
    server = Daphne(tmp_path / "daphne.log").start()
    try:
        yield server
    finally:
        server.stop()


def open_socket(daphne: Daphne, gid: str, ident):
    headers = {**daphne.origin, "Cookie": f"sessionid={ident.session_key}"}
    return ws_connect(daphne.url(f"/ws/games/{gid}/"), additional_headers=headers)


def frames_until(ws, predicate, timeout: float = 10) -> dict:
    """Read frames until one satisfies `predicate`; that one."""
    deadline = time.monotonic() + timeout
    while True:
        frame = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if predicate(frame):
            return frame


def is_move(ply: int):
    return lambda f: f.get("type") == "event" and f["event"].get("ply") == ply


def test_an_idle_socket_stays_open_and_gets_the_next_move(daphne):
    gid, red, blue = set_up_game()
    with open_socket(daphne, gid, red) as red_ws, open_socket(daphne, gid, blue) as blue_ws:
        version = frames_until(blue_ws, lambda f: f["type"] == "state")["version"]
        frames_until(red_ws, lambda f: f["type"] == "state")
        time.sleep(IDLE_SECONDS)  # nothing is sent either way
        red_ws.send(json.dumps({"type": "move", "from": 7, "to": 12}))
        event = frames_until(blue_ws, is_move(1))
        assert event["version"] == version + 1
        frames_until(red_ws, is_move(1))
    assert_clean_log(daphne.log_text())
