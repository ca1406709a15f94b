"""The private parts of pinned libraries the server reaches (games/transport/compat.py, and
asyncio's in tests/conftest.py) are what the locked versions have. A version bump fails the
first test, which names the library: check its part in games/transport/compat.py (or
tests/conftest.py) against the new version, then update the pin here."""

from __future__ import annotations

import asyncio
import functools
import re
from importlib.metadata import version
from pathlib import Path

import pytest
from asgiref.sync import SyncToAsync, sync_to_async
from channels_redis.core import RedisChannelLayer
from twisted.internet import abstract

from games.transport import compat

LOCK = (Path(__file__).resolve().parents[2] / "requirements.lock").read_text()
CHECKED = {  # the versions whose private parts these tests checked
    "asgiref": "3.13.0",
    "autobahn": "26.10.2",
    "channels": "4.3.2",
    "channels-redis": "4.3.0",
    "daphne": "4.2.3",
    "twisted": "26.10.0",
    "txaio": "26.6.1",
}


@pytest.mark.parametrize("name", sorted(CHECKED))
def test_the_locked_and_installed_versions_are_the_ones_checked(name):
    locked = re.search(rf"^{re.escape(name)}==(\S+)", LOCK, re.M | re.I)
    assert locked and locked.group(1) == CHECKED[name], f"{name}: re-check compat.py"
    assert version(name) == CHECKED[name]


async def test_asgiref_records_the_loop_a_sync_thread_works_for():
    loop = asyncio.get_running_loop()
    assert await sync_to_async(compat.sync_thread_loop)() is loop
    assert hasattr(SyncToAsync, "threadlocal")


def test_channels_names_the_handler_of_a_message_type():
    assert compat.handler_name({"type": "game.frames"}) == "game_frames"


def test_twisted_transports_hold_unsent_bytes_where_compat_reads_them():
    transport = abstract.FileDescriptor()
    assert all(hasattr(transport, name) for name in ("dataBuffer", "offset", "_tempDataLen"))
    assert compat.twisted_unsent_bytes(transport) == 0
    transport.dataBuffer, transport.offset, transport._tempDataLen = b"x" * 10, 4, 3
    assert compat.twisted_unsent_bytes(transport) == 6 + 3


def test_daphne_send_is_found_through_a_partial_and_channels_real_send():
    class Protocol:
        transport = object()

    daphne_send = functools.partial(print, Protocol())

    class Session:
        real_send = daphne_send

        async def send(self, message: dict) -> None:
            pass

    assert compat.daphne_transport(daphne_send) is Protocol.transport
    assert compat.daphne_transport(Session().send) is Protocol.transport
    assert compat.daphne_transport(print) is None


def test_daphne_factories_wait_as_long_as_asked_for_the_answer_to_a_close():
    from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol

    assert "closeHandshakeTimeout" in WebSocketProtocol.CONFIG_ATTRS  # (copied per socket)
    try:
        assert compat.lengthen_close_handshake(7)
        assert compat.lengthen_close_handshake(9)  # (a second call replaces, not stacks)
        factory = WebSocketFactory(None)
        assert factory.closeHandshakeTimeout == 9
        factory.setProtocolOptions(autoPingTimeout=30, allowNullOrigin=True)  # (as daphne)
        assert factory.closeHandshakeTimeout == 9
    finally:
        compat.lengthen_close_handshake()
    assert WebSocketFactory(None).closeHandshakeTimeout == compat.CLOSE_HANDSHAKE_SECONDS


def test_the_redis_layer_has_every_member_the_resilient_layer_builds_on():
    layer = RedisChannelLayer(hosts=["redis://localhost:6379/0"])
    missing = [name for name in compat.REDIS_LAYER_INTERNALS if not hasattr(layer, name)]
    assert missing == []
    assert callable(layer._group_key) and layer._group_key("g").endswith(b"g")


def test_asyncio_still_cancels_a_loop_s_tasks_where_the_tests_bound_the_wait():
    import asyncio.runners

    assert asyncio.runners._cancel_all_tasks.__name__ == "_cancel_all_tasks_bounded"


def test_a_redis_pool_has_the_lists_the_lock_free_pool_changes():
    """compat.LoopConnectionPool lends from and takes back to the stock pool's two lists."""
    pool = compat.LoopConnectionPool.from_url("redis://localhost:6379/0", max_connections=5)
    assert pool._available_connections == [] and len(pool._in_use_connections) == 0
    assert callable(pool.get_available_connection) and callable(pool.ensure_connection)


async def test_the_lock_free_pool_lends_each_connection_to_one_command_at_a_time():
    """Many commands at once on one loop: each gets a connection of its own, every one comes
    back, and a connection over the bound is refused as the stock pool refuses it."""
    from redis.asyncio import Redis
    from redis.exceptions import MaxConnectionsError

    pool = compat.LoopConnectionPool.from_url("redis://localhost:6379/0", max_connections=50)
    client = Redis(connection_pool=pool)
    key = f"contract:lock-free:{id(pool)}"
    try:
        counts = await asyncio.gather(*(client.incr(key) for _ in range(50)))
        assert sorted(counts) == list(range(1, 51))  # no reply went to another command
        assert len(pool._in_use_connections) == 0
        assert len(pool._available_connections) == 50
        replies = await asyncio.gather(*(client.incr(key) for _ in range(51)),
                                       return_exceptions=True)  # fmt: skip
        refused = [r for r in replies if isinstance(r, MaxConnectionsError)]
        assert len(refused) == 1 and int(await client.get(key)) == 100
        assert len(pool._in_use_connections) == 0
    finally:
        await client.delete(key)
        await pool.disconnect()


def test_the_site_layer_builds_its_pools_lock_free():
    from games.transport.layers import ResilientRedisChannelLayer
    from stratego_site.settings import redis_host

    layer = ResilientRedisChannelLayer(hosts=[redis_host("redis://localhost:6379/0")])
    assert type(layer.create_pool(0)) is compat.LoopConnectionPool
