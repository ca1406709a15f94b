"""Each socket's synchronous work on one of a few threads: its lane.

Channels reaches the database from a socket through `database_sync_to_async`, which is
thread-sensitive: outside a context of its own, every such call of the process, whatever
its socket, runs on asgiref's one thread, in one queue. A socket's session and user are read
there before it is accepted, and its presence and catch-up after; under a crowd every
handshake waited behind the others' database round trips, and daphne dropped those not
accepted within its five seconds (docs/performance.md, "The full collections' pauses, and
where a move waits").

So each socket runs in an asgiref `ThreadSensitiveContext` of its own whose executor is one
of SOCKET_LANES one-thread executors, taken in turn: a socket's calls stay in order on one
thread, as Channels expects, while different sockets wait for the database side by side.
The sockets' actions have threads of their own (games/transport/consumers.py `act`). On
SQLite, which takes one writer at a time, and with SOCKET_LANES 0, the socket runs as
Channels runs it.
"""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext


class SocketLanes:
    """`application` (ASGI) with each websocket's thread-sensitive calls on a lane of its
    own; other connections as they were."""

    def __init__(self, application: Any, lanes: int) -> None:
        self.application = application
        self.executors = [
            ThreadPoolExecutor(1, thread_name_prefix=f"socket-lane-{i}") for i in range(lanes)
        ]
        self.turn = itertools.count()

    def lane(self) -> ThreadPoolExecutor:
        return self.executors[next(self.turn) % len(self.executors)]

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            await self.application(scope, receive, send)
            return
        async with ThreadSensitiveContext(executor=self.lane()):
            await self.application(scope, receive, send)


def in_lanes(application: Any, lanes: int, vendor: str) -> Any:
    """`application` with SOCKET_LANES lanes for its sockets, on PostgreSQL."""
    if lanes <= 0 or vendor == "sqlite":
        return application
    return SocketLanes(application, lanes)
