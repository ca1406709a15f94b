"""On a real daphne and the real Redis layer: a socket that receives nothing for a minute
stays open and gets the next move (redis-py 8's 5 s read timeout used to close it with 1011
and a traceback every 5 s), and the sockets survive a restart of Redis."""

from __future__ import annotations

import json
import subprocess
import time

import pytest
from websockets.sync.client import connect as ws_connect

from .daphne import Daphne, assert_clean_log, free_port, wait_for_port
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


class PrivateRedis:
    """A redis-server of the test's own on a free port, so restarting it disturbs no other
    test (the suite runs in parallel processes that share the machine's Redis)."""

    def __init__(self, tmp_path) -> None:  # noqa: ANN001 - a Path
        self.port = free_port()
        self.dir = tmp_path
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                   "--save", "", "--appendonly", "no", "--dir", str(self.dir)]  # fmt: skip
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        wait_for_port(self.port, self.proc)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None


@pytest.fixture
def private_redis(tmp_path):
    server = PrivateRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_sockets_survive_a_redis_restart(private_redis, tmp_path):
    """daphne on a Redis of its own, which is stopped and started again mid-game (every
    connection of the channel layer drops, and for a moment nothing answers): the sockets
    stay, the game goes on, and the log holds no traceback."""
    daphne = Daphne(tmp_path / "daphne.log", env={"REDIS_URL": private_redis.url}).start()
    try:
        gid, red, blue = set_up_game()
        with open_socket(daphne, gid, red) as red_ws, open_socket(daphne, gid, blue) as blue_ws:
            frames_until(blue_ws, lambda f: f["type"] == "state")
            frames_until(red_ws, lambda f: f["type"] == "state")
            private_redis.stop()
            time.sleep(0.5)
            private_redis.start()
            time.sleep(1)
            red_ws.send(json.dumps({"type": "move", "from": 7, "to": 12}))
            frames_until(red_ws, is_move(1))
            frames_until(blue_ws, is_move(1))
            blue_ws.send(json.dumps({"type": "move", "from": 15, "to": 10}))
            frames_until(red_ws, is_move(2))
    finally:
        daphne.stop()
    assert_clean_log(daphne.log_text())
