"""Behind the real nginx, each client is counted under its own address: the daphne processes
trust X-Forwarded-For from the proxy alone (TRUSTED_PROXIES, stratego_site/proxy.py). A
hundred clients from distinct loopback addresses (127.0.0.2 ... 127.0.0.101) open their
sockets through nginx and none is refused; one going over its own limits is refused alone;
a client cannot choose its address by sending the header, through the proxy or around it."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from .daphne import assert_clean_log
from .proxy import two_daphnes_behind_nginx

pytestmark = pytest.mark.django_db(transaction=True)

CLIENTS = [f"127.0.0.{i}" for i in range(2, 102)]
SOCKETS_EACH = 3


@pytest.fixture
def site(tmp_path):
    # the limits of a public server: 64 sockets and a burst of 30 connects per address; the
    # bucket refills slowly here, so that a loaded machine's slow handshakes refill nothing
    env = {"TRUSTED_PROXIES": "127.0.0.1", "WS_CONNECTS_PER_SECOND": "0.1"}
    with two_daphnes_behind_nginx(tmp_path, env) as topology:
        yield topology


async def open_lobby(port: int, source: str, headers: dict | None = None):
    """A lobby socket from `source` to 127.0.0.1:port: (the socket, its first frame)."""
    ws = await connect(
        f"ws://127.0.0.1:{port}/ws/lobby/",
        additional_headers={"Origin": f"http://127.0.0.1:{port}", **(headers or {})},
        local_addr=(source, 0),
        open_timeout=60,
    )
    try:
        first = json.loads(await asyncio.wait_for(ws.recv(), 60))
    except ConnectionClosed:
        first = {"type": "closed"}
    return ws, first


def refused(frames: list[dict]) -> int:
    return sum(1 for f in frames if f["type"] == "error")


async def crowd(port: int, sources: list[str], each: int, headers: dict | None = None):
    opened = await asyncio.gather(
        *(open_lobby(port, s, headers) for s in sources for _ in range(each))
    )
    return [ws for ws, _ in opened], [frame for _, frame in opened]


async def close_all(sockets) -> None:
    await asyncio.gather(*(ws.close() for ws in sockets))


def test_a_hundred_clients_behind_nginx_are_each_counted_alone(site):
    proxy, daphnes = site

    async def scenario() -> None:
        sockets, frames = await crowd(proxy.port, CLIENTS, SOCKETS_EACH)
        # 300 sockets, 150 on each process: from one address they would pass the 64 sockets
        # and the burst of 30 connects that one address may have
        assert len(frames) == 300 and refused(frames) == 0, frames
        # one client opens 80 more at once (40 a process, over its burst of 30): refused
        greedy, greedy_frames = await crowd(proxy.port, ["127.0.0.50"], 80)
        assert refused(greedy_frames) >= 10
        assert {f["code"] for f in greedy_frames if f["type"] == "error"} <= {
            "reconnecting_too_fast",
            "too_many_sockets",
        }
        # ... alone: its neighbours still connect
        others, other_frames = await crowd(proxy.port, ["127.0.0.49", "127.0.0.51"], 5)
        assert refused(other_frames) == 0
        await close_all(sockets + greedy + others)

    asyncio.run(scenario())
    for d in daphnes:
        assert_clean_log(d.log_text())


def test_a_client_cannot_choose_its_address(site):
    proxy, daphnes = site

    async def scenario() -> None:
        # through nginx, a forged header is followed by the proxy's own entry: the client is
        # the address nginx saw
        spoof = {"X-Forwarded-For": "198.51.100.7"}
        through, through_frames = await crowd(proxy.port, ["127.0.0.120"], 80, spoof)
        assert refused(through_frames) >= 10
        # around nginx, straight to a daphne: a peer that is not a trusted proxy keeps its
        # own address, whatever it sends
        around = await asyncio.gather(
            *(open_lobby(daphnes[0].port, "127.0.0.121", {"X-Forwarded-For": f"203.0.113.{i}"})
              for i in range(1, 41))
        )  # fmt: skip
        assert refused([frame for _, frame in around]) >= 5
        await close_all(through + [ws for ws, _ in around])

    asyncio.run(scenario())
