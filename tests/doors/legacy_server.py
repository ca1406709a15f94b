"""The legacy-protocol server in the test's own event loop, on a free port."""

from __future__ import annotations

from contextlib import asynccontextmanager

from games.transport.legacy.client import LegacyClient
from games.transport.legacy.server import LegacyServer
from tests.server.daphne import free_port

HOST = "127.0.0.1"


@asynccontextmanager
async def legacy_server(grace: float = 30.0, frame_timeout: float = 2.0):
    server = LegacyServer(grace=grace, frame_timeout=frame_timeout)
    port = free_port()  # (fixed ranges by pid collided between xdist workers)
    await server.start(HOST, port)
    server.port = port
    try:
        yield server
    finally:
        await server.close()


async def client(server: LegacyServer) -> LegacyClient:
    return await LegacyClient.connect(HOST, server.port)
