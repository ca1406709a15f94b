"""Two real daphne processes share PostgreSQL and Redis: every socket sees every event.

Red plays on process A; Blue and an observer are on process B.
"""

from __future__ import annotations

import json
import time
from contextlib import ExitStack

import pytest
from websockets.sync.client import connect as ws_connect

from games.domain.models import Game

from .conftest import SHORT_GAME
from .daphne import Daphne, assert_clean_log
from .helpers import set_up_game
from .leaks import assert_no_leak

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def servers(tmp_path):
    procs = [Daphne(tmp_path / f"daphne-{name}.log") for name in ("a", "b")]
    try:
        for proc in procs:
            proc.start()
        yield [p.port for p in procs], [p.log for p in procs]
    finally:
        for proc in procs:
            proc.stop()


class Client:
    def __init__(self, stack: ExitStack, port: int, gid: str, key: str | None, role: int) -> None:
        headers = {"Origin": f"http://127.0.0.1:{port}"}  # the page of the server it talks to
        if key:
            headers["Cookie"] = f"sessionid={key}"
        url = f"ws://127.0.0.1:{port}/ws/games/{gid}/"
        self.ws = stack.enter_context(ws_connect(url, additional_headers=headers))
        self.role = role
        self.frames: list[dict] = []
        self.version = -1

    def read_until(self, version: int, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while self.version < version:
            frame = json.loads(self.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            assert frame["type"] != "error", frame
            assert_no_leak(frame, self.role)
            self.frames.append(frame)
            if "view" in frame:
                self.version = frame["version"]

    def send(self, message: dict) -> None:
        self.ws.send(json.dumps(message))


def test_two_daphne_processes_share_one_game(servers):
    (port_a, port_b), logs = servers
    gid, red, blue = set_up_game(ready=False)
    with ExitStack() as stack:
        clients = [
            Client(stack, port_a, gid, red.session_key, 0),
            Client(stack, port_b, gid, blue.session_key, 1),
            Client(stack, port_b, gid, None, 2),
        ]
        version = play(gid, clients)
    game = Game.objects.get(public_id=gid)
    assert game.status == "finished" and game.version == version
    for log in logs:
        assert_clean_log(log.read_text())


def play(gid: str, clients: list[Client]) -> int:
    """Ready, then the short game; each client must see every event. The last version."""
    start = Game.objects.get(public_id=gid).version
    for c in clients:
        c.read_until(start)
        assert c.frames[0]["type"] == "state" and c.frames[0]["role"] == c.role
    actions = [(0, {"type": "ready"}), (1, {"type": "ready"})]
    actions += [(color, {"type": "move", "from": f, "to": t}) for color, f, t in SHORT_GAME]
    version = start
    for role, message in actions:
        clients[role].send(message)
        version += 1
        for c in clients:
            c.read_until(version)
    version += 1  # the flag capture is followed by game_over
    for c in clients:
        c.read_until(version)
        events = [f for f in c.frames if f["type"] == "event"]
        assert [f["version"] for f in events] == list(range(start + 1, version + 1))
        assert events[-1]["event"]["termination"] == "flag_captured"
    return version
