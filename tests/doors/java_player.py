"""The Java client (java/LegacyClient.java), compiled by javac and driven line by line, with
the Python client's interface so the same game script plays it."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

from games.transport.legacy import frames as f

SOURCE = Path(__file__).parent / "java" / "LegacyClient.java"


def compile_client(out_dir: Path) -> Path:
    subprocess.run(["javac", "-d", str(out_dir), str(SOURCE)], check=True, timeout=120)
    return out_dir


class JavaPlayer:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def start(cls, classes: Path, host: str, port: int) -> JavaPlayer:
        process = await asyncio.create_subprocess_exec(
            "java", "-cp", str(classes), "LegacyClient", host, str(port),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        return cls(process)

    async def command(self, line: str) -> None:
        self.process.stdin.write(line.encode() + b"\n")
        await self.process.stdin.drain()

    async def sign_on(self, name: str) -> None:
        await self.command(f"SIGNON {name}")

    async def setup(self, piece_id: str, x: int, y: int) -> None:
        await self.command(f"SETUP {piece_id} {x} {y}")

    async def ready(self) -> None:
        await self.command("READY")

    async def move(self, x0: int, y0: int, x1: int, y1: int) -> None:
        await self.command(f"MOVE {x0} {y0} {x1} {y1}")

    async def read(self, timeout: float = 20.0) -> tuple:
        line = await asyncio.wait_for(self.process.stdout.readline(), timeout)
        text = line.decode().rstrip("\n")
        if text == "CLOSED" or not text:
            return ("closed",)
        kind, *payload = text.split("\t")
        if int(kind) == f.MOVED:
            return (f.MOVED, *map(int, payload))
        return (int(kind), *payload)

    async def closed(self) -> bool:
        return await self.read() == ("closed",)

    async def stop(self) -> None:
        if self.process.returncode is None:
            self.process.kill()
        await self.process.wait()
