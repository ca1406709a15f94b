"""A daphne process stops promptly with sockets open.

On SIGTERM/SIGINT daphne cancels every application and waits only until the first of them
has ended (its `asyncio.gather` fails at the first cancellation), then stops Twisted and the
asyncio loop. A consumer that was still in its disconnect then had a worker thread in
`presence.leave` -> `broadcast.send_now` -> `async_to_sync`, which hands the send to the
event loop and waits for it: the loop had stopped, so the thread waited for ever and the
interpreter's exit (which joins that thread) hung until the process was killed.

So, before Twisted shuts down:
- presence stops following sockets (`presence.stop_following`): a closing socket's leave
  writes and broadcasts nothing, and its row expires by the TTL, as a crashed process's
  would (a player who reconnects to another process within the TTL is never shown as gone);
- the background threads are told to stop (they are daemons: never joined here);
- the shutdown waits, at most DRAIN_SECONDS, for the cancelled consumers to end and then for
  the worker thread to run everything queued before: whatever they send through
  `async_to_sync` is served while the loop still runs.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time

from channels.db import database_sync_to_async
from django.core.exceptions import RequestAborted

from games.transport import presence

from . import scheduler

logger = logging.getLogger(__name__)

DRAIN_SECONDS = 1.5


def install() -> bool:
    """Run `before_shutdown` when the Twisted reactor (daphne's) shuts down. Never imports
    the reactor (that would install one): without daphne this does nothing."""
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is None:
        return False
    reactor.addSystemEventTrigger("before", "shutdown", before_shutdown)
    return True


def before_shutdown():  # (a twisted Deferred (the shutdown waits for it))
    from twisted.internet.defer import Deferred

    presence.stop_following()
    scheduler.request_stop()
    asyncio.get_event_loop().set_exception_handler(ignore_orphaned_disconnects)
    return Deferred.fromFuture(asyncio.ensure_future(drain()))


def ignore_orphaned_disconnects(loop: asyncio.AbstractEventLoop, context: dict) -> None:
    """Django's ASGIHandler, cancelled by daphne's shutdown while a view runs, leaves its
    disconnect listener behind; the client's disconnect then ends that task with
    RequestAborted, which asyncio logs with a traceback ("Task exception was never
    retrieved"). A request cut short by the shutdown is expected: not an error."""
    if isinstance(context.get("exception"), RequestAborted):
        return
    loop.default_exception_handler(context)


async def drain() -> None:
    """Wait for the cancelled consumers (and any other task) to end, then for the worker
    thread to finish what they queued; at most DRAIN_SECONDS in all."""
    await asyncio.sleep(0)  # daphne's trigger cancels the consumers in this same tick
    deadline = time.monotonic() + DRAIN_SECONDS
    me = asyncio.current_task()
    others = [task for task in asyncio.all_tasks() if task is not me]
    pending: set[asyncio.Task] = set()
    if others:
        _, pending = await asyncio.wait(others, timeout=DRAIN_SECONDS)
    try:  # runs after every call queued before it on the one worker thread
        async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
            await database_sync_to_async(_nothing)()
    except TimeoutError:
        pending.add(me)
    if pending:
        logger.warning("shutdown: %d task(s) still running, stopping anyway", len(pending))


def _nothing() -> None:
    return None
