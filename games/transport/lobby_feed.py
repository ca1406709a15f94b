"""The lobby's lists, read once for all the lobby sockets of a process.

Every change to the lobby (a game created, joined, finished, a spectator come or gone) sends
each lobby socket a nudge, and each used to read the lists itself: a hundred open lobbies
turned one change into a hundred reads, and a crowd's changes into more reads than the
database could serve. Here the sockets of a process share one read: a nudge marks the lists
stale, the first socket to ask reads them, the others wait for that read, and reads are at
least READ_INTERVAL apart, however many nudges come; and at least ten times as long apart as
the last read took, up to MAX_SPACING, so that on a busy process (a big lobby, a crowd
waiting for the database) the reads take at most a tenth of its time and the lists come a
little later instead of the moves. Lists older than MAX_AGE are read again
even without a nudge. Nudges reach only open lobby sockets, so what was read is trusted only
while some lobby socket of the process has been open since: when the last one closes, the
lists are forgotten. Runs on the event loop's thread only: no lock."""

from __future__ import annotations

import asyncio
import contextvars
import time

from channels.db import database_sync_to_async

from ..services import snapshots

READ_INTERVAL = 0.5  # seconds between two reads of one process, at least
READ_SHARE = 0.1  # of a process's time, at most, for its lobby reads
MAX_SPACING = 5.0  # seconds between two reads, at most, however long the last one took
MAX_AGE = 2.0  # seconds a read serves a socket that opens without a nudge

_generation = 0  # changes seen (nudges)
_lists: dict | None = None
_read_generation = -1  # the generation the lists were read at
_read_at = float("-inf")  # (monotonic) when the last read started
_spacing = READ_INTERVAL  # seconds from the last read's start to the next one's
_reading: asyncio.Task | None = None
_watchers = 0  # open lobby sockets of this process (they get the nudges)


def opened() -> None:
    """A lobby socket joined the lobby's group: from now on it sees every nudge."""
    global _watchers
    _watchers += 1


def closed() -> None:
    global _watchers, _lists
    _watchers = max(0, _watchers - 1)
    if _watchers == 0:
        _lists = None  # changes from now on would go unseen


def changed() -> None:
    """A nudge: the lists are stale."""
    global _generation
    _generation += 1


def fresh() -> bool:
    return (
        _lists is not None
        and _read_generation == _generation
        and time.monotonic() - _read_at < MAX_AGE
    )


def spacing_after(took: float) -> float:
    """Seconds from one read's start to the next's, after a read that took `took`."""
    return min(MAX_SPACING, max(READ_INTERVAL, took / READ_SHARE))


async def _read() -> None:
    global _lists, _read_generation, _read_at, _spacing
    wait = _read_at + _spacing - time.monotonic()
    if wait > 0:
        await asyncio.sleep(wait)
    generation = _generation
    _read_at = time.monotonic()
    _lists = await database_sync_to_async(snapshots.lobby_lists)()
    _read_generation = generation
    _spacing = spacing_after(time.monotonic() - _read_at)


async def lists() -> dict:
    """The lobby's lists as of the latest change (a read shared with the other sockets)."""
    global _reading
    while not fresh():
        if _reading is None or _reading.done():
            # the read is shared: not on the lane of the socket that began it
            fresh_context = contextvars.Context()
            _reading = asyncio.get_running_loop().create_task(_read(), context=fresh_context)
        reading = _reading
        await asyncio.shield(reading)  # one socket gone does not cancel the others' read
    assert _lists is not None
    return _lists


def reset() -> None:
    """For tests: forget what was read."""
    global _lists, _read_generation, _read_at, _reading, _watchers, _spacing
    _lists, _read_generation, _read_at, _reading, _watchers = None, -1, float("-inf"), None, 0
    _spacing = READ_INTERVAL
