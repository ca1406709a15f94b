"""Limits per client on a real daphne: open sockets per session and per address, reconnect
loops, and one client's flood does not stop other games."""

from __future__ import annotations

import contextlib
import json
import threading
import time

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from games.transport import limits
from games.transport.guards import CLOSE_FLOOD

from .conftest import SHORT_GAME
from .daphne import ROOT, Daphne, assert_clean_log
from .helpers import set_up_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def small_limits(tmp_path):
    env = {
        "WS_SOCKETS_PER_SESSION": "3",
        "WS_SOCKETS_PER_ADDRESS": "6",
        "WS_CONNECTS_PER_SECOND": "0.05",  # a slow refill: a loaded machine still sees the refusal
        "WS_CONNECT_BURST": "12",
    }
    server = Daphne(tmp_path / "daphne.log", env=env).start()
    try:
        yield server
    finally:
        server.stop()


def open_ws(daphne: Daphne, gid: str, ident=None):
    headers = dict(daphne.origin)
    if ident is not None:
        headers["Cookie"] = f"sessionid={ident.session_key}"
    return ws_connect(daphne.url(f"/ws/games/{gid}/"), additional_headers=headers)


def refusal(ws) -> tuple[str, int | None]:
    """The error code of the first frame, and the close code that follows."""
    frame = json.loads(ws.recv(timeout=10))
    try:
        while True:
            ws.recv(timeout=10)
    except ConnectionClosed as exc:
        return frame.get("code"), None if exc.rcvd is None else exc.rcvd.code


def test_sockets_per_session_and_per_address_are_capped(small_limits):
    gid, red, _ = set_up_game()
    with contextlib.ExitStack() as stack:
        tabs = [stack.enter_context(open_ws(small_limits, gid, red)) for _ in range(3)]
        for ws in tabs:
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
        with open_ws(small_limits, gid, red) as fourth:
            assert refusal(fourth) == ("too_many_sockets", limits.CLOSE_TOO_MANY)
        tabs.pop().close()
        time.sleep(1.5)  # the server's side of the close (presence, then the count) runs after
        again = stack.enter_context(open_ws(small_limits, gid, red))  # a closed tab's place
        assert json.loads(again.recv(timeout=10))["type"] == "state"
        watchers = [stack.enter_context(open_ws(small_limits, gid)) for _ in range(3)]
        for ws in watchers:  # 6 from this address now
            frame = json.loads(ws.recv(timeout=10))
            assert frame["type"] == "state", frame
        with open_ws(small_limits, gid) as seventh:
            assert refusal(seventh) == ("too_many_sockets", limits.CLOSE_TOO_MANY)
    assert_clean_log(small_limits.log_text())


def test_a_reconnect_loop_is_limited(small_limits):
    gid, _, _ = set_up_game()
    codes = []
    for _ in range(20):
        with open_ws(small_limits, gid) as ws:
            frame = json.loads(ws.recv(timeout=10))
            codes.append(frame.get("code") or frame["type"])
    assert codes[:12] == ["state"] * 12
    assert "reconnecting_too_fast" in codes[12:]
    assert_clean_log(small_limits.log_text())


def flood(daphne: Daphne, gid: str, closes: list) -> None:
    """A client opening sockets and sending as fast as it can on each."""
    for _ in range(10):
        try:
            with open_ws(daphne, gid) as ws:
                for _ in range(200):
                    ws.send('{"type":"ping"}')
                while True:
                    ws.recv(timeout=10)
        except ConnectionClosed as exc:
            closes.append(None if exc.rcvd is None else exc.rcvd.code)


def test_one_clients_flood_does_not_stop_another_game(tmp_path):
    server = Daphne(tmp_path / "daphne.log").start()
    try:
        flooded, _, _ = set_up_game()
        gid, red, blue = set_up_game()
        closes: list = []
        flooders = [
            threading.Thread(target=flood, args=(server, flooded, closes)) for _ in range(3)
        ]
        with open_ws(server, gid, red) as red_ws, open_ws(server, gid, blue) as blue_ws:
            socks = {0: red_ws, 1: blue_ws}
            version = json.loads(red_ws.recv(timeout=10))["version"]
            json.loads(blue_ws.recv(timeout=10))
            for thread in flooders:
                thread.start()
            for color, frm, to in SHORT_GAME:
                socks[color].send(json.dumps({"type": "move", "from": frm, "to": to}))
                version += 1
                while json.loads(socks[1 - color].recv(timeout=10)).get("version") != version:
                    pass
            for thread in flooders:
                thread.join(60)
        assert closes and set(closes) <= {CLOSE_FLOOD, limits.CLOSE_TOO_MANY}, closes
    finally:
        server.stop()
    assert_clean_log(server.log_text())


def test_the_limits_are_documented():
    doc = (ROOT / "docs" / "protocol.md").read_text()
    assert f"| {limits.CLOSE_TOO_MANY} |" in doc
    for code in ("too_many_sockets", "reconnecting_too_fast"):
        assert f"`{code}`" in doc


class FakeTransport:
    """What twisted's TCP transport keeps of the bytes the kernel has not taken yet."""

    def __init__(self, unsent: int) -> None:
        self.dataBuffer, self.offset, self._tempDataLen = b"x" * unsent, 0, 0
        self.aborted = False

    def abortConnection(self) -> None:  # noqa: N802 - twisted's name
        self.aborted = True


class FakeProtocol:
    def __init__(self, transport: FakeTransport) -> None:
        self.transport = transport


def test_a_client_that_does_not_read_is_dropped():
    """daphne's send is partial(handle_reply, protocol): past SLOW_READER_BYTES unsent, the
    TCP connection is aborted (a close frame would only queue behind the rest)."""
    import functools

    reading = FakeTransport(limits.SLOW_READER_BYTES)
    stuck = FakeTransport(limits.SLOW_READER_BYTES + 1)
    for transport, dropped in ((reading, False), (stuck, True)):
        send = functools.partial(lambda protocol, message: None, FakeProtocol(transport))
        assert limits.drop_if_not_reading(send) is dropped
        assert transport.aborted is dropped
    assert limits.drop_if_not_reading(lambda message: None) is False  # not daphne: nothing


def test_under_daphne_the_unread_bytes_are_seen(tmp_path):
    """With the allowance at 1 byte, the state frame itself is more than the client has read
    when it is written: daphne's socket is found under the middleware and dropped (no close
    frame), and the server logs no error."""
    server = Daphne(tmp_path / "daphne.log", env={"WS_SLOW_READER_BYTES": "1"}).start()
    try:
        gid, _, _ = set_up_game()
        with open_ws(server, gid) as ws:
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=10)
        assert closed.value.rcvd is None
    finally:
        server.stop()
    assert_clean_log(server.log_text())
