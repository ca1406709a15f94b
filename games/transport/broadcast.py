"""What the channel layer carries, sent only after the transaction commits.

A game's sockets are in two groups: the game's (spectator counts, nudges) and their
audience's (`audience.<id>.red|blue|obs`). After a commit each audience group gets the event
frames of that audience, computed once (games/services/snapshots.py `pushed_frames`), which its
sockets forward as they are: a socket never receives another audience's frames, and reads
the database only on connect, on a version gap or when a nudge says it is behind.

Sending. A service runs on a thread that serves the event loop (an action thread of
games/transport/consumers.py `act`, or database_sync_to_async's), and waiting there for
Redis would hold the socket work queued behind it. So, when the thread serves an event loop,
the sends are handed to the loop and the thread goes on; a game's sends leave in the order of its
commits (each waits for the game's previous
one), and the three audiences of one commit go at once. Without a loop (a management command,
a test's plain call, the scheduler's threads) they are sent before returning.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import weakref
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from ..services import snapshots
from ..services.work import Result
from . import compat

logger = logging.getLogger(__name__)
LOBBY_GROUP = "lobby"


def game_group(public_id: str) -> str:
    return f"game_{public_id}"


AUDIENCES = ("red", "blue", "obs")  # by role: 0 Red, 1 Blue, 2 observers


def audience_group(public_id: str, role: int) -> str:
    """The group of the sockets of `role` in a game ('.' never occurs in a game id)."""
    return f"audience.{public_id}.{AUDIENCES[role]}"


Sends = list[tuple[str, dict]]  # (group, message), sent at once


async def send_all(layer, sends: Sends) -> None:  # (a channel layer)
    # (games/transport/layers.py: one round trip for all)
    many = getattr(layer, "group_send_many", None)
    if many is not None:
        await many(sends)
        return
    await asyncio.gather(*(layer.group_send(group, message) for group, message in sends))


def serving_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop this thread does sync work for (asgiref's sync_to_async sets it), if
    it still runs; None in a thread of its own or on the loop itself."""
    loop = compat.sync_thread_loop()
    if loop is None:
        return None
    if loop.is_closed() or not loop.is_running():
        return None
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return loop
    return None  # (on the loop's own thread: not a sync thread)


def clean_context() -> contextvars.Context:
    """A context for the loop's side: not the sync thread's, whose asgiref marks (a sync
    call in progress) would make the loop's own database_sync_to_async refuse to run."""
    return contextvars.Context()


def hand_over(loop: asyncio.AbstractEventLoop, callback: Callable, *args: object) -> None:
    """Run `callback(*args)` on the loop; a loop that closed meanwhile (the process stops)
    only loses the send: the sockets catch up when they reconnect."""
    try:
        loop.call_soon_threadsafe(callback, *args, context=clean_context())
    except RuntimeError as exc:
        logger.warning("broadcast dropped: %r", exc)


# Per loop, per key (a game): the send still in flight, which the next one waits for.
_tails: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


# the loop keeps only weak references to its tasks: one nobody holds may be destroyed while
# still pending, its broadcast lost
_running: set[asyncio.Task] = set()


def _keep_running(task: asyncio.Task) -> None:
    _running.add(task)
    task.add_done_callback(_running.discard)


def send(sends: Sends, key: str | None = None, what: str = "") -> None:
    """Send now (see the module's doc): in order with the other sends of `key`."""
    layer = get_channel_layer()
    if layer is None or not sends:
        return
    loop = serving_loop()
    if loop is None:
        try:
            async_to_sync(send_all)(layer, sends)
        except Exception as exc:  # the commit stands; sockets catch up on their next sync
            logger.warning("broadcast to %s failed: %r", what or sends[0][0], exc)
        return
    what = what or sends[0][0]
    hand_over(loop, _start, loop, layer, sends, key, what)


def _start(loop: asyncio.AbstractEventLoop, layer, sends: Sends, key, what: str) -> None:
    """On the loop: start the send after the previous one of `key`."""
    tails = _tails.setdefault(loop, {})
    previous = tails.get(key) if key is not None else None
    task = loop.create_task(_send_after(previous, layer, sends, what), context=detached())
    _keep_running(task)
    if key is not None:
        tails[key] = task
        task.add_done_callback(lambda done: tails.pop(key) if tails.get(key) is done else None)


async def _send_after(previous: asyncio.Task | None, layer, sends: Sends, what: str) -> None:
    if previous is not None:
        await asyncio.wait([previous])  # whatever became of it
    try:
        await send_all(layer, sends)
    except Exception as exc:  # the commit stands; sockets catch up on the next version gap
        logger.warning("broadcast to %s failed: %r", what, exc)


def detached() -> contextvars.Context:
    """A fresh context for work of the process that outlives the socket that started it."""
    return contextvars.Context()


def send_now(group: str, message: dict) -> None:
    send([(group, message)])


def publish(result: Result) -> None:
    """After a unit of work committed (games/reactions.py): each audience gets the frames of
    its events, computed once (and no other audience's), and the lobby hears of a change to
    its lists."""
    game = result.game
    if result.events:
        by_role = snapshots.pushed_frames(game, list(result.events), result.eg)
        sends = [(audience_group(game.public_id, role), m) for role, m in by_role.items()]
        send(sends, game.public_id, game.public_id)
    if result.lobby and not game.private:
        send_now(LOBBY_GROUP, {"type": "lobby.nudge"})


COALESCE_SECONDS = 0.2
_pending: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # per loop: keys due


def send_coalesced(key: str, make: Callable[[], Sends]) -> None:
    """Send what `make()` (sync, it may read the database) returns, at most once per
    COALESCE_SECONDS per `key`: calls meanwhile join the one due, which reads the state as of
    its sending. A crowd of 200 spectators arriving was 200 counts sent to a group growing
    to 200 (20,000 frames), ahead of the moves. Without a loop: at once."""
    loop = serving_loop()
    if loop is None:
        send(make())
        return
    hand_over(loop, _schedule, loop, key, make)


def _schedule(loop: asyncio.AbstractEventLoop, key: str, make: Callable[[], Sends]) -> None:
    due = _pending.setdefault(loop, set())
    if key not in due:
        due.add(key)
        # in a context of its own: not the lane of the socket whose change asked for it, which
        # may have closed by then (stratego_site/socket_lanes.py)
        loop.call_later(
            COALESCE_SECONDS,
            lambda: _keep_running(loop.create_task(_fire(due, key, make))),
            context=detached(),
        )


async def _fire(due: set, key: str, make: Callable[[], Sends]) -> None:
    due.discard(key)  # (first: a change from now on is sent again)
    layer = get_channel_layer()
    try:
        await send_all(layer, await database_sync_to_async(make)())
    except Exception as exc:  # the next change sends it again
        logger.warning("broadcast of %s failed: %r", key, exc)
