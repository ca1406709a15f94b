"""The seed 001 server in the test's own event loop, on a port of this worktree's range."""

from __future__ import annotations

import itertools
import os
from contextlib import asynccontextmanager

from games.legacy.client import LegacyClient
from games.legacy.server import LegacyServer

HOST = "127.0.0.1"
_ports = itertools.count(7700 + os.getpid() % 40)


def next_port() -> int:
    return next(_ports) % 40 + 7700  # 7700-7739: in-process servers; 7740-7799: subprocesses


@asynccontextmanager
async def legacy_server(grace: float = 30.0, frame_timeout: float = 2.0):
    server = LegacyServer(grace=grace, frame_timeout=frame_timeout)
    port = next_port()
    await server.start(HOST, port)
    server.port = port
    try:
        yield server
    finally:
        await server.close()


async def client(server: LegacyServer) -> LegacyClient:
    return await LegacyClient.connect(HOST, server.port)
