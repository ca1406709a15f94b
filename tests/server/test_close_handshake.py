"""A client a little late to answer a close the server started still gets a clean close: a
real daphne waits for the answer (games/transport/compat.py, `lengthen_close_handshake`)
instead of resetting the connection, which can lose the error frame sent just before the
close."""

from __future__ import annotations

import base64
import os
import socket
import time

import pytest
from websockets.sync.client import connect as ws_connect

from games.transport import limits

from .daphne import Daphne, assert_clean_log
from .helpers import set_up_game

pytestmark = pytest.mark.django_db(transaction=True)

LATE = 1.5  # seconds: later than autobahn's stock wait (at most 1 s), well within ours


def raw_websocket(server: Daphne, path: str) -> tuple[socket.socket, bytes]:
    """A websocket opened by hand; the bytes that came after the handshake's answer."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Origin: {server.origin['Origin']}\r\n\r\n"
    )
    sock.sendall(request.encode())
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, rest = data.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock, rest


def close_frame(code: int) -> bytes:
    return bytes([0x88, 0x02]) + code.to_bytes(2, "big")


def test_a_client_late_to_answer_a_close_is_not_reset(tmp_path):
    env = {"WS_CONNECTS_PER_SECOND": "0.05", "WS_CONNECT_BURST": "1"}
    server = Daphne(tmp_path / "daphne.log", env=env).start()
    try:
        gid, _, _ = set_up_game()
        with ws_connect(server.url(f"/ws/games/{gid}/"), additional_headers=server.origin) as ws:
            ws.recv(timeout=10)  # (the one connection the burst allows)
        sock, received = raw_websocket(server, f"/ws/games/{gid}/")
        with sock:
            while close_frame(limits.CLOSE_TOO_MANY) not in received:
                chunk = sock.recv(65536)
                assert chunk, received
                received += chunk
            closing = received.index(close_frame(limits.CLOSE_TOO_MANY))
            assert b'"code":"reconnecting_too_fast"' in received[:closing]
            time.sleep(LATE)
            sock.setblocking(False)  # (a socket with a timeout would wait to read)
            try:
                ended = sock.recv(1, socket.MSG_PEEK) == b""
            except BlockingIOError:
                ended = False  # (still open, nothing more to read: a server waiting)
            except ConnectionResetError:
                pytest.fail("the server reset the connection before the client answered")
            assert not ended, "the server closed the connection before the client answered"
            sock.setblocking(True)
            mask = b"\0\0\0\0"  # (a client's frame is masked; a zero mask keeps it readable)
            answer = bytes([0x88, 0x82]) + mask + limits.CLOSE_TOO_MANY.to_bytes(2, "big")
            sock.sendall(answer)
            sock.settimeout(5)
            try:  # (once answered, the server ends the connection)
                assert sock.recv(1) == b""
            except ConnectionResetError:
                pass  # (autobahn ends it with a reset)
    finally:
        server.stop()
    assert_clean_log(server.log_text())
