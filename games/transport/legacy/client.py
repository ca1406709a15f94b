"""A small legacy-protocol client (asyncio), for tests, scripts and docs/legacy-protocol.md."""

from __future__ import annotations

import asyncio
import struct

from . import frames as f

STRING_FRAMES = {f.WAIT, f.CONNECTED, f.PLACEMENT_VALID, f.PLACEMENT_INVALID, f.PLAYING}
STRING_FRAMES |= {f.MOVE_INVALID, f.GAME_OVER}


class LegacyClient:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def connect(cls, host: str, port: int) -> LegacyClient:
        reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer)

    async def send(self, frame: bytes) -> None:
        self.writer.write(frame)
        await self.writer.drain()

    async def sign_on(self, name: str) -> None:
        await self.send(f.string_frame(f.SIGN_ON, name))

    async def setup(self, piece_id: str, x: int, y: int) -> None:
        await self.send(f.java_int(f.SETUP) + f.java_char(piece_id) + f.java_int(x) + f.java_int(y))

    async def ready(self) -> None:
        await self.send(f.string_frame(f.READY, "ready"))

    async def move(self, x0: int, y0: int, x1: int, y1: int) -> None:
        await self.send(f.ints_frame(f.MOVE, x0, y0, x1, y1))

    async def _int(self) -> int:
        return struct.unpack(">i", await self.reader.readexactly(4))[0]

    async def _char(self) -> str:
        return chr(struct.unpack(">H", await self.reader.readexactly(2))[0])

    async def _string(self) -> str:
        (size,) = struct.unpack(">H", await self.reader.readexactly(2))
        return f.decode_java_utf(await self.reader.readexactly(size))

    async def read(self, timeout: float = 10.0) -> tuple:
        """The next server frame as (type, *payload); a Board's payload is its 100 chars."""
        return await f.within(self._read(), timeout)

    async def _read(self) -> tuple:
        kind = await self._int()
        if kind in STRING_FRAMES:
            return kind, await self._string()
        if kind == f.MOVED:
            return (kind, *[await self._int() for _ in range(4)])
        if kind == f.BOARD:
            return kind, "".join([await self._char() for _ in range(f.BOARD_SQUARES)])
        if kind == f.BATTLE:
            return kind, await self._string(), await self._char(), await self._char()
        raise ValueError(f"unknown server frame type {kind}")

    async def closed(self, timeout: float = 10.0) -> bool:
        """True once the server has closed the connection (reads what is left first);
        False if it is still open after `timeout` seconds."""
        try:
            while await f.within(self.reader.read(4096), timeout):
                pass
        except TimeoutError:
            return False
        except (ConnectionError, OSError):
            pass
        return True

    async def close(self) -> None:
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass
