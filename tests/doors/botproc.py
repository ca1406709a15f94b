"""The bot client (`python -m games.client`) as its own process, against a server's port."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from typing import Protocol

from tests.server.daphne import ROOT


class Server(Protocol):
    port: int


def client_env() -> dict:
    return {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}


async def bot_client(daphne: Server, token: str, *args: str) -> asyncio.subprocess.Process:
    """`python -m games.client` itself, as its own process."""
    command = [sys.executable, "-m", "games.client", "--server", f"http://127.0.0.1:{daphne.port}",
               "--token", token, *args]  # fmt: skip
    return await asyncio.create_subprocess_exec(
        *command, cwd=ROOT, env=client_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


async def finished(process: asyncio.subprocess.Process, timeout: float = 240) -> str:
    out, err = await asyncio.wait_for(process.communicate(), timeout)
    assert process.returncode == 0, err.decode()
    assert "Traceback" not in err.decode(), err.decode()
    return out.decode()
