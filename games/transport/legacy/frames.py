"""The legacy protocol's frames: a big-endian 4-byte int type, then its payload, in Java's
encodings.

`String` is Java's writeUTF (a 2-byte length, then modified UTF-8), `Int` 4 bytes
big-endian, `Char` one UTF-16 code unit (2 bytes). Reading refuses what a Java client
could never send, and strings longer than MAX_STRING_BYTES, with BadFrame.
"""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")
MAX_STRING_BYTES = 1024

# Client frame types
SIGN_ON, SETUP, READY, MOVE = 1, 2, 3, 4
# Server frame types
WAIT, CONNECTED, PLACEMENT_VALID, PLACEMENT_INVALID, PLAYING = 1, 2, 3, 4, 5
MOVED, BOARD, MOVE_INVALID, BATTLE, GAME_OVER = 6, 7, 8, 9, 10
BOARD_SQUARES = 100


class BadFrame(Exception):
    """A frame the server cannot accept: the connection is closed."""


def java_utf(text: str) -> bytes:
    """Java's writeUTF: modified UTF-8 (NUL as two bytes, surrogates 3 bytes each)."""
    units = text.encode("utf-16-be", "surrogatepass")
    out = bytearray()
    for (unit,) in struct.iter_unpack(">H", units):
        if 0 < unit < 0x80:
            out.append(unit)
        elif unit < 0x800:
            out += bytes((0xC0 | unit >> 6, 0x80 | unit & 0x3F))
        else:
            out += bytes((0xE0 | unit >> 12, 0x80 | unit >> 6 & 0x3F, 0x80 | unit & 0x3F))
    if len(out) > 0xFFFF:
        raise ValueError("a Java string holds at most 65535 bytes")
    return struct.pack(">H", len(out)) + bytes(out)


def decode_java_utf(data: bytes) -> str:
    """The inverse of java_utf's body, or BadFrame on a malformed byte sequence."""
    units: list[int] = []
    i = 0
    while i < len(data):
        first = data[i]
        if first < 0x80 and first != 0:
            units.append(first)
            i += 1
        elif first >> 5 == 0b110 and i + 1 < len(data) and data[i + 1] >> 6 == 0b10:
            units.append((first & 0x1F) << 6 | data[i + 1] & 0x3F)
            i += 2
        elif (
            first >> 4 == 0b1110
            and i + 2 < len(data)
            and data[i + 1] >> 6 == 0b10
            and data[i + 2] >> 6 == 0b10
        ):
            units.append((first & 0x0F) << 12 | (data[i + 1] & 0x3F) << 6 | data[i + 2] & 0x3F)
            i += 3
        else:
            raise BadFrame("malformed modified UTF-8")
    raw = struct.pack(f">{len(units)}H", *units)
    return raw.decode("utf-16-be", "surrogatepass")


def java_char(char: str) -> bytes:
    return struct.pack(">H", ord(char))


def java_int(value: int) -> bytes:
    return struct.pack(">i", value)


def string_frame(kind: int, text: str) -> bytes:
    return java_int(kind) + java_utf(text)


def ints_frame(kind: int, *values: int) -> bytes:
    return java_int(kind) + b"".join(java_int(v) for v in values)


def battle_frame(winner: str, attacker: str, defender: str) -> bytes:
    return java_int(BATTLE) + java_utf(winner) + java_char(attacker) + java_char(defender)


def board_frame(cells: str) -> bytes:
    if len(cells) != BOARD_SQUARES:
        raise ValueError("a board frame holds 100 chars")
    return java_int(BOARD) + b"".join(java_char(c) for c in cells)


async def within(awaitable: Awaitable[T], seconds: float) -> T:
    """`awaitable`'s result, or TimeoutError after `seconds`: asyncio.wait_for without its
    Python 3.11 flaw. wait_for runs the awaitable as a task of its own and, when its caller is
    cancelled just as that task finishes, returns the result instead of the cancellation: a
    loop around it (the feed's poll, the frame reader) then never stops, and a closing server
    (or a test's event loop) waits for it for ever. asyncio.timeout runs it in the caller's task."""
    async with asyncio.timeout(seconds):
        return await awaitable


class FrameReader:
    """Reads client frames from a stream; every read is bounded by `timeout` seconds
    once a frame has begun (a truncated frame never holds the connection forever)."""

    def __init__(self, reader: asyncio.StreamReader, timeout: float = 10.0) -> None:
        self.reader = reader
        self.timeout = timeout

    async def exactly(self, size: int) -> bytes:
        try:
            return await within(self.reader.readexactly(size), self.timeout)
        except asyncio.IncompleteReadError as exc:
            raise BadFrame("truncated frame") from exc
        except TimeoutError as exc:
            raise BadFrame("truncated frame (timed out)") from exc

    async def read_int(self) -> int:
        return struct.unpack(">i", await self.exactly(4))[0]

    async def read_char(self) -> str:
        (unit,) = struct.unpack(">H", await self.exactly(2))
        return chr(unit)

    async def read_string(self) -> str:
        (size,) = struct.unpack(">H", await self.exactly(2))
        if size > MAX_STRING_BYTES:
            raise BadFrame(f"a string of {size} bytes (at most {MAX_STRING_BYTES})")
        return decode_java_utf(await self.exactly(size))

    async def next_type(self) -> int | None:
        """The next frame's type, or None when the client closed between frames."""
        head = await self.reader.read(4)  # (no timeout: a player may think for long)
        if not head:
            return None
        if len(head) < 4:
            head += await self.exactly(4 - len(head))
        return struct.unpack(">i", head)[0]

    async def read_frame(self) -> tuple[int, tuple] | None:
        """(type, payload) of the next client frame; None at a clean end of the stream."""
        kind = await self.next_type()
        if kind is None:
            return None
        if kind in (SIGN_ON, READY):
            return kind, (await self.read_string(),)
        if kind == SETUP:
            return kind, (await self.read_char(), await self.read_int(), await self.read_int())
        if kind == MOVE:
            return kind, tuple([await self.read_int() for _ in range(4)])
        raise BadFrame(f"unknown frame type {kind}")
