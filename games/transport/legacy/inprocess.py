"""The TCP door inside the web process: `LEGACY_PORT=7777 make run` (or daphne, or runserver).

On the embedded default the channel layer is in memory, so it reaches only the sockets of
its own process: a separate `serve_legacy` shares the database with the web process but not
the layer, and a browser player would see a TCP player's moves only on reload. Served from
the web process itself, on the very event loop of its websockets, every TCP frame's events
reach the browser sockets at once, and theirs reach the TCP players, whatever the layer.

Started from stratego_site/asgi.py with the process's background work. The project's
servers are daphne's (its CLI, `manage.py runserver`, the Docker image): the door is started
on daphne's asyncio loop once that loop runs, and closed before the reactor shuts down. A
process that never runs that loop (another ASGI server) gets no door, and says so: run
`manage.py serve_legacy` beside it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading

from .server import DEFAULT_PORT, GRACE_SECONDS, LegacyServer

logger = logging.getLogger(__name__)

NOT_RUNNING_AFTER = 60.0  # seconds: no daphne loop by then, no door (a warning says why)

_started = False
_lock = threading.Lock()
_server: LegacyServer | None = None
_began = threading.Event()  # the door's start ran on daphne's loop


def configured() -> tuple[str, int, float] | None:
    """(host, port, grace) from LEGACY_HOST / LEGACY_PORT / LEGACY_GRACE; None when LEGACY_PORT
    is unset or empty (no door). A bad value is logged and opens no door."""
    raw = os.environ.get("LEGACY_PORT", "").strip()
    if not raw:
        return None
    try:
        port = DEFAULT_PORT if raw.lower() in ("on", "default") else int(raw)
        grace = float(os.environ.get("LEGACY_GRACE", "") or GRACE_SECONDS)
    except ValueError:
        logger.error("LEGACY_PORT=%r / LEGACY_GRACE: not a number; no TCP door", raw)
        return None
    if not 0 < port < 65536:
        logger.error("LEGACY_PORT=%d: not a port; no TCP door", port)
        return None
    return os.environ.get("LEGACY_HOST", "127.0.0.1"), port, grace


def start() -> None:
    """Open the door if LEGACY_PORT asks for it, once per process."""
    global _started
    config = configured()
    if config is None:
        return
    with _lock:
        if _started:
            return
        _started = True
    # The loop of daphne's reactor: made when daphne.server was imported (the daphne app does
    # it first), run by daphne's Server once it starts (after the application is imported).
    from daphne.server import twisted_loop as loop

    loop.call_soon_threadsafe(lambda: loop.create_task(serve(*config)))
    close_before_shutdown(loop)
    threading.Thread(target=warn_if_never_started, args=config[:2], daemon=True).start()


def warn_if_never_started(host: str, port: int) -> None:
    if not _began.wait(NOT_RUNNING_AFTER):
        logger.warning(
            "LEGACY_PORT=%d: this process does not run daphne's event loop, so it serves no "
            "TCP door; run `manage.py serve_legacy --host %s --port %d` beside it",
            port, host, port,
        )  # fmt: skip


async def serve(host: str, port: int, grace: float) -> None:
    global _server
    _began.set()
    server = LegacyServer(grace=grace)
    try:
        await server.start(host, port)
    except OSError as exc:  # the port is taken: the web server goes on without the door
        logger.error("the legacy TCP door could not listen on %s:%d: %s", host, port, exc)
        return
    _server = server
    logger.info("legacy TCP door on %s:%d (in the web process)", host, port)


async def close_door() -> None:
    if _server is not None:
        try:
            await asyncio.wait_for(_server.close(), 5.0)
        except (TimeoutError, OSError) as exc:
            logger.warning("the TCP door did not close cleanly: %r", exc)


def close_before_shutdown(loop: asyncio.AbstractEventLoop) -> None:
    """Close the door's connections while daphne's loop still runs, so each leaves cleanly
    (a leave needs the loop for its broadcast) and the process exits at once."""
    from twisted.internet import defer, reactor  # daphne installed the asyncio reactor

    def close():  # (a Deferred)
        return defer.Deferred.fromFuture(asyncio.ensure_future(close_door(), loop=loop))

    reactor.addSystemEventTrigger("before", "shutdown", close)
