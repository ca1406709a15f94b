"""Against a real daphne process: close codes the websocket server really sends (the test
communicator checks none), its own size limit, and paths that match no route."""

from __future__ import annotations

import json
import struct

import pytest
from django.conf import settings
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from games.domain.models import Presence
from games.transport.guards import CLOSE_NOT_FOUND, CLOSE_TOO_BIG, MAX_FRAME_BYTES

from .daphne import ROOT, Daphne, assert_clean_log
from .helpers import seated_game, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def daphne(tmp_path_factory, django_db_setup):
    """One server for the module (each start costs a second of CPU): the tests close their
    sockets, and each checks the whole log so far, so a traceback any of them caused shows."""
    server = Daphne(tmp_path_factory.mktemp("real-daphne") / "daphne.log").start()
    try:
        yield server
    finally:
        server.stop()


def close_code(ws, message: str | None = None) -> int | None:
    """Send `message` (if any), read until the server closes; the code it sent (None when it
    dropped the connection without a close frame: 1006 at the client)."""
    try:
        if message is not None:
            ws.send(message)
        while True:
            ws.recv(timeout=10)
    except ConnectionClosed as exc:
        return None if exc.rcvd is None else exc.rcvd.code


def presences(gid: str) -> int:
    return Presence.objects.filter(game__public_id=gid).count()


def frame_header(length: int, mask: bytes = b"\x01\x02\x03\x04") -> bytes:
    """The head of a masked client text frame of `length` payload bytes (RFC 6455, 5.2)."""
    return b"\x81\xff" + struct.pack("!Q", length) + mask


def masked(data: bytes, mask: bytes = b"\x01\x02\x03\x04") -> bytes:
    return bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def huge_frame_start(size: int) -> bytes:
    """The header of a `size`-byte frame and its first kilobyte, not the rest."""
    return frame_header(size) + masked(b'{"type": "ping", "pad": "' + b"x" * 1000)


@pytest.mark.parametrize("how", ["consumer", "server", "server 4 MB"])
def test_an_oversized_frame_closes_cleanly_on_daphne(daphne, how):
    """A frame over 4096 bytes gets the consumer's 4009 (a code daphne may send: 1009 from an
    application crashed the consumer, the client saw 1011 and the presence row stayed). One
    over the server's limit (settings.WEBSOCKET_SERVER_LIMIT) is refused by daphne itself
    from its header, before the payload is even sent (it is never buffered): autobahn drops
    the TCP connection without a close frame."""
    gid, red, _ = seated_game()
    headers = {**daphne.origin, "Cookie": f"sessionid={red.session_key}"}
    with ws_connect(daphne.url(f"/ws/games/{gid}/"), additional_headers=headers) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        assert wait_until(lambda: presences(gid) == 1)
        if how == "consumer":
            frame = json.dumps({"type": "ping", "pad": "x" * MAX_FRAME_BYTES})
            assert close_code(ws, frame) == CLOSE_TOO_BIG
        else:
            # 1 KB of the frame; twice our limit would still be read under daphne's default
            size = 4 * 1024 * 1024 if "4 MB" in how else 2 * settings.WEBSOCKET_SERVER_LIMIT
            ws.socket.sendall(huge_frame_start(size))
            assert close_code(ws) is None
    assert wait_until(lambda: presences(gid) == 0), "disconnect() ran: the presence row is gone"
    # the server goes on serving
    with ws_connect(daphne.url(f"/ws/games/{gid}/"), additional_headers=daphne.origin) as ws:
        assert json.loads(ws.recv(timeout=10))["role"] == 2
    assert_clean_log(daphne.log_text())


def test_daphne_is_started_with_the_server_limit_everywhere():
    """The Dockerfile and docker-compose.yml start daphne as the tests do (DAPHNE_ARGS)."""
    assert settings.WEBSOCKET_SERVER_LIMIT > MAX_FRAME_BYTES
    for name in ("Dockerfile", "docker-compose.yml"):
        text = (ROOT / name).read_text()
        for arg in settings.DAPHNE_ARGS:
            assert arg in text, (name, arg)


@pytest.mark.parametrize(
    "path",
    ["/ws/games/a.b/", f"/ws/games/{'a' * 40}/", "/ws/games/abc", "/ws/nothing/", "/ws/"],
)
def test_a_path_without_a_route_gets_not_found_and_4404_on_daphne(daphne, path):
    with ws_connect(daphne.url(path), additional_headers=daphne.origin) as ws:
        error = json.loads(ws.recv(timeout=10))
        assert error["type"] == "error" and error["code"] == "not_found", error
        assert close_code(ws) == CLOSE_NOT_FOUND
    assert_clean_log(daphne.log_text())
