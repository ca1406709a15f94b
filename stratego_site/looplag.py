"""How late a server process's event loop runs what is due, when its logger is at DEBUG
(`LOG_LEVELS=stratego_site.looplag=DEBUG`; the soak sets it, bench/soak).

Every socket's frames and every page's bytes wait their turn on the one event loop: when it
is late, everything is. A thread asks the loop every PROBE_SECONDS to note the time, and
the delay between asking and running is what any frame waited then. Every REPORT_SECONDS it
logs the delays' median, 99th percentile and most. The probes cost nothing when the logger
is not at DEBUG: none are sent."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any

logger = logging.getLogger(__name__)

PROBE_SECONDS = 0.02
REPORT_SECONDS = 30.0
STALL_SECONDS = 5.0  # a probe not run by then counts as that late

_loop: asyncio.AbstractEventLoop | None = None


def watching(application: Any) -> Any:
    """`application` (ASGI), noting the event loop that serves it on its first call."""

    async def noted(scope: dict, receive: Any, send: Any) -> None:
        global _loop
        if _loop is None:
            _loop = asyncio.get_running_loop()
        await application(scope, receive, send)

    return noted


def probe(loop: asyncio.AbstractEventLoop) -> float:
    """Milliseconds between asking `loop` to run something and its running it."""
    ran: list[float] = []
    done = threading.Event()

    def note() -> None:
        ran.append(time.perf_counter())
        done.set()

    asked = time.perf_counter()
    loop.call_soon_threadsafe(note)
    if not done.wait(STALL_SECONDS):
        return STALL_SECONDS * 1000
    return (ran[0] - asked) * 1000


def measure() -> float:
    """The scheduler's job: REPORT_SECONDS of probes, then one line; the seconds to wait."""
    if not logger.isEnabledFor(logging.DEBUG) or _loop is None or _loop.is_closed():
        return REPORT_SECONDS
    delays = []
    until = time.monotonic() + REPORT_SECONDS
    while time.monotonic() < until:
        delays.append(probe(_loop))
        time.sleep(PROBE_SECONDS)
    delays.sort()
    logger.debug("event loop lag: p50 %.2f / p99 %.2f / most %.2f ms over %d probes",
                 delays[len(delays) // 2], delays[int(len(delays) * 0.99)], delays[-1],
                 len(delays))  # fmt: skip
    return 0.0
