"""A server process's open file descriptors and memory stay bounded whatever its visitors do:
production settings on a real daphne, waves of sockets that close cleanly, sockets dropped
without a close, handshakes abandoned half-way and page views. After a warm-up wave, further
waves add no descriptor and no more than a few megabytes of resident memory (a leak of a
socket's state, its buffers or its descriptor would grow with every wave). What a longer run
of such waves measured is in docs/performance.md ("Memory and descriptors under churn")."""

from __future__ import annotations

import json
import os
import socket
import time
from pathlib import Path

import pytest
from websockets.sync.client import connect as ws_connect

from .daphne import Daphne, assert_clean_log
from .helpers import set_up_game
from .test_bounded_connections import POOL_SIZE, get, production, production_sessions

pytestmark = pytest.mark.django_db(transaction=True)

WAVES = 5  # the first warms up (imports, caches, pools); the second is the baseline
SOCKETS_PER_WAVE = 30
HALF_HANDSHAKES_PER_WAVE = 15
PAGES_PER_WAVE = 30
RSS_SLACK_MB = 6.0  # the allocator's own noise, far under what a per-socket leak would add
FD_SLACK = 2  # beside the pool's connections, which come and go with the traffic
RESET = b"\x01\x00\x00\x00\x00\x00\x00\x00"  # SO_LINGER on, 0 s: close sends a TCP reset


def resources(pid: int) -> tuple[int, float]:
    """(open descriptors, resident MB) of a live process."""
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    status = Path(f"/proc/{pid}/status").read_text()
    rss_kb = next(int(line.split()[1]) for line in status.splitlines()
                  if line.startswith("VmRSS:"))  # fmt: skip
    return fds, rss_kb / 1024


def spectate(server: Daphne, gid: str, drop: bool) -> None:
    """A spectator who reads the game's state, then leaves: with a close, or by vanishing."""
    with ws_connect(server.url(f"/ws/games/{gid}/"), additional_headers=server.origin) as ws:
        while json.loads(ws.recv(timeout=10))["type"] != "state":
            pass
        if drop:  # no close frame, the TCP connection torn down
            ws.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, RESET)
            ws.socket.close()


def half_handshake(server: Daphne, gid: str) -> None:
    """A client that starts a websocket handshake and goes away before finishing it."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw:
        raw.sendall(f"GET /ws/games/{gid}/ HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: web".encode())


def wave(server: Daphne, gid: str) -> None:
    for i in range(SOCKETS_PER_WAVE):
        try:
            spectate(server, gid, drop=i % 2 == 1)
        except OSError:
            pass  # (the dropped socket's own close reports the reset)
    for _ in range(HALF_HANDSHAKES_PER_WAVE):
        half_handshake(server, gid)
    base = f"http://127.0.0.1:{server.port}"
    paths = ["/", "/players/", f"/games/{gid}/"]
    statuses = {get(base + paths[i % len(paths)])[0] for i in range(PAGES_PER_WAVE)}
    assert statuses == {200}, statuses


@production_sessions
def test_descriptors_and_memory_stay_flat_across_waves_of_visitors(tmp_path):
    gid, _, _ = set_up_game()
    # one address sends the whole crowd here: the per-address limits are not under test
    limits = {"WS_CONNECTS_PER_SECOND": "1000", "WS_CONNECT_BURST": "5000",
              "WS_SOCKETS_PER_ADDRESS": "5000"}  # fmt: skip
    server = Daphne(tmp_path / "daphne.log", env=production("resources", **limits)).start()
    try:
        seen = []
        for _ in range(WAVES):
            wave(server, gid)
            time.sleep(1.5)  # the server notices the dropped and abandoned connections
            seen.append(resources(server.proc.pid))
    finally:
        server.stop()
    assert_clean_log(server.log_text())
    (base_fds, base_rss), (end_fds, end_rss) = seen[1], seen[-1]
    assert end_fds <= base_fds + POOL_SIZE + FD_SLACK, seen
    assert end_rss <= base_rss + RSS_SLACK_MB, seen
