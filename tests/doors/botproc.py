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
    command = [sys.executable, "-m", "clients.bot", "--server", f"http://127.0.0.1:{daphne.port}",
               "--token", token, *args]  # fmt: skip
    return await asyncio.create_subprocess_exec(
        *command, cwd=ROOT, env=client_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


async def finished(process: asyncio.subprocess.Process, timeout: float = 240) -> str:
    """The client's output once it exits; if it is still running after `timeout`, it is
    killed and the test fails with what it printed so far (the only clue to a stall)."""
    out: list[bytes] = []
    err: list[bytes] = []
    try:
        reading = read_all(process.stdout, out), read_all(process.stderr, err)
        await asyncio.wait_for(asyncio.gather(*reading, process.wait()), timeout)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise AssertionError(
            f"the bot client was still running after {timeout:.0f} s\n"
            f"stdout:\n{b''.join(out).decode()}\nstderr:\n{b''.join(err).decode()}"
        ) from None
    error = b"".join(err).decode()
    assert process.returncode == 0, error
    assert "Traceback" not in error, error
    return b"".join(out).decode()


async def read_all(stream: asyncio.StreamReader | None, chunks: list[bytes]) -> None:
    while stream is not None and (chunk := await stream.read(65536)):
        chunks.append(chunk)
