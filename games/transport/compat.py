"""The private parts of pinned libraries the transport reaches, each in one place. A new
version of one of these libraries may change them without notice:
tests/server/test_library_contracts.py pins the versions checked (requirements.lock) and
checks each part below, so an upgrade fails there first, naming what to look at.

- asgiref: the event loop a sync thread works for (`SyncToAsync.threadlocal`);
- channels: the handler name of a message type (`get_handler_name`, what `dispatch` uses);
- daphne and Twisted: a socket's TCP transport under daphne's `send`, and the bytes Twisted
  holds for the client (`dataBuffer`, `offset`, `_tempDataLen`);
- daphne and autobahn: how long the server waits for the client's answer to a close it
  started (`closeHandshakeTimeout` of daphne's `WebSocketFactory`);
- channels_redis: the members of `RedisChannelLayer` games/transport/layers.py builds on
  (`REDIS_LAYER_INTERNALS`);
- redis-py: the lists of a connection pool (`LoopConnectionPool`).
"""

from __future__ import annotations

import asyncio
import functools
import os
import sys
from collections.abc import Callable

from asgiref.sync import SyncToAsync
from channels.consumer import get_handler_name
from channels_redis.core import RedisChannelLayer
from channels_redis.utils import create_pool
from redis.asyncio import ConnectionPool

__all__ = [
    "REDIS_LAYER_INTERNALS",
    "LoopConnectionPool",
    "RedisChannelLayer",
    "daphne_transport",
    "handler_name",
    "lengthen_close_handshake",
    "sync_thread_loop",
    "twisted_unsent_bytes",
]


# ---------------------------------------------------------------- asgiref


def sync_thread_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop this thread does sync work for (asgiref's sync_to_async records it in
    a thread-local), if it was set in this process; None in a thread of its own."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is None or getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    return loop


# ---------------------------------------------------------------- channels


def handler_name(message: dict) -> str:
    """The consumer method that handles `message` ("game.frames" -> "game_frames")."""
    return get_handler_name(message)


# ---------------------------------------------------------------- daphne and Twisted


def daphne_transport(send: Callable) -> object | None:
    """The TCP transport under a daphne socket: daphne's `send` is partial(handle_reply,
    protocol), wrapped by channels' session middleware (`real_send`). None under any other
    server (the test communicator)."""
    for _ in range(8):  # (a few wrappers at most)
        if isinstance(send, functools.partial):
            return getattr(send.args[0], "transport", None) if send.args else None
        send = getattr(getattr(send, "__self__", None), "real_send", None)
        if send is None:
            return None
    return None


def twisted_unsent_bytes(transport: object) -> int:
    """What Twisted holds for the client, not yet taken by the kernel."""
    data = getattr(transport, "dataBuffer", b"")
    offset = getattr(transport, "offset", 0)
    temp = getattr(transport, "_tempDataLen", 0)
    return max(0, len(data) - offset) + temp


# ---------------------------------------------------------------- daphne and autobahn

# How long the server waits for a client to answer a close the server started.
CLOSE_HANDSHAKE_SECONDS = 5


def lengthen_close_handshake(seconds: float = CLOSE_HANDSHAKE_SECONDS) -> bool:
    """Make daphne's websocket factories wait `seconds` for the client's answer to a close.

    autobahn waits 1 s by default, then aborts the TCP connection (a reset). Its timer
    (txaio's batched timer) rounds each deadline down to a whole second, so that wait is
    anywhere between 0 and 1 s: a client answering a few milliseconds after the close could
    be reset, and a client library may then drop the frames that came just before the close,
    such as the error that says why the socket was closed. Rounded down, `seconds` still
    leaves `seconds - 1`. Without daphne loaded this does nothing (returns False)."""
    ws_protocol = sys.modules.get("daphne.ws_protocol")
    if ws_protocol is None:
        return False
    factory = ws_protocol.WebSocketFactory
    reset = getattr(factory, "_stock_reset_protocol_options", factory.resetProtocolOptions)

    def reset_protocol_options(self) -> None:  # (autobahn calls it from the factory's __init__)
        reset(self)
        self.closeHandshakeTimeout = seconds

    factory._stock_reset_protocol_options = reset
    factory.resetProtocolOptions = reset_protocol_options
    return True


# ---------------------------------------------------------------- channels_redis

# What games/transport/layers.py's subclass uses of RedisChannelLayer beyond its documented
# interface: methods, then attributes set by its __init__.
REDIS_LAYER_METHODS = (
    "_group_key",
    "_map_channel_keys_to_connection",
    "_backup_channel_name",
    "connection",
    "consistent_hash",
    "get_capacity",
    "non_local_name",
    "receive_single",
)
REDIS_LAYER_ATTRIBUTES = (
    "client_prefix",
    "prefix",
    "group_expiry",
    "expiry",
    "channel_capacity",
    "hosts",
    "receive_buffer",
    "receive_count",
)
REDIS_LAYER_INTERNALS = REDIS_LAYER_METHODS + REDIS_LAYER_ATTRIBUTES


# ---------------------------------------------------------------- redis-py


class LoopConnectionPool(ConnectionPool):
    """redis-py's asyncio connection pool without its asyncio.Lock around lending and taking
    back a connection. The lock hands itself to one waiting task per turn of the event loop,
    so a busy loop lent a few dozen connections a second whatever Redis could do: under the
    soak a move's send waited up to 1.8 s for a connection (docs/performance.md, "Where a
    move waited"). One event loop owns a pool (channels_redis makes one per loop), and the
    two lists change only between awaits, so nothing needs the lock. What the stock pool
    also does there, reporting its counts to OpenTelemetry and the after-release event
    (re-authentication with a credential provider), this site does not use."""

    async def get_connection(self, command_name=None, *keys, **options):
        connection = self.get_available_connection()  # (no await since the last check)
        try:
            await self.ensure_connection(connection)
        except BaseException:
            await self.release(connection)
            raise
        return connection

    async def release(self, connection) -> None:
        self._in_use_connections.remove(connection)
        if connection.should_reconnect():
            await connection.disconnect()
        self._available_connections.append(connection)


def loop_connection_pool(host: dict) -> ConnectionPool:
    """channels_redis's pool for a host entry, as a LoopConnectionPool where the entry is an
    address (this site's: settings.redis_host); other shapes (Sentinel) as the library
    makes them."""
    if "address" not in host:
        return create_pool(host)
    options = dict(host)
    return LoopConnectionPool.from_url(options.pop("address"), **options)
