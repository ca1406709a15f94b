"""Each socket's thread-sensitive calls on one of a few threads (stratego_site/socket_lanes.py):
in order on one thread for a socket, side by side for different sockets."""

from __future__ import annotations

import asyncio
import threading
import time

from channels.db import database_sync_to_async

from stratego_site.socket_lanes import SocketLanes, in_lanes


def thread_name() -> str:
    return threading.current_thread().name


async def test_a_sockets_calls_stay_on_its_lane_and_sockets_take_the_lanes_in_turn():
    seen: dict[str, list[str]] = {}

    async def app(scope, receive, send):
        names = [await database_sync_to_async(thread_name)() for _ in range(3)]
        seen[scope["path"]] = names

    lanes = SocketLanes(app, 2)
    for path in ("/a", "/b", "/c"):
        await lanes({"type": "websocket", "path": path}, None, None)
    assert len(set(seen["/a"])) == 1 and seen["/a"][0].startswith("socket-lane-")
    assert seen["/a"][0] != seen["/b"][0]  # the next socket, the next lane
    assert seen["/c"][0] == seen["/a"][0]  # two lanes: the third socket shares the first's
    await lanes({"type": "http", "path": "/page"}, None, None)
    assert not seen["/page"][0].startswith("socket-lane-")  # pages run as Django runs them


async def test_sockets_on_different_lanes_wait_side_by_side():
    async def app(scope, receive, send):
        await database_sync_to_async(time.sleep)(0.3)  # as a slow database round trip

    lanes = SocketLanes(app, 4)
    started = time.monotonic()
    await asyncio.gather(*(lanes({"type": "websocket", "path": "/"}, None, None)
                           for _ in range(4)))  # fmt: skip
    assert time.monotonic() - started < 1.0  # on one thread: 1.2 s


def test_no_lanes_on_sqlite_or_when_turned_off():
    async def app(scope, receive, send):
        pass

    assert in_lanes(app, 4, "sqlite") is app
    assert in_lanes(app, 0, "postgresql") is app
    assert isinstance(in_lanes(app, 4, "postgresql"), SocketLanes)
