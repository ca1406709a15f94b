"""The channel layer hands a group message to the sending process's members itself and uses
Redis only for the other processes' (games/transport/layers.py, "Local delivery"): on the real
Redis,
two layer instances standing for two processes."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest

from games.transport.layers import ResilientRedisChannelLayer

REDIS_URL = os.environ.get("REDIS_URL", "redis://localhost:6379/0")
WAIT = 10.0  # seconds before a message counts as never delivered (a hang, not a speed)


def two_processes() -> tuple[ResilientRedisChannelLayer, ResilientRedisChannelLayer]:
    prefix = f"local-{uuid.uuid4().hex[:8]}"
    layers = tuple(ResilientRedisChannelLayer(hosts=[REDIS_URL], prefix=prefix) for _ in "ab")
    for layer in layers:
        layer.brpop_timeout = 1
    return layers


async def queued_in_redis(layer: ResilientRedisChannelLayer, channel: str) -> int:
    """Messages waiting in Redis for `channel`'s process."""
    return await layer.connection(0).zcard(layer.prefix + layer.non_local_name(channel))


def nothing_waiting(layer: ResilientRedisChannelLayer, channel: str) -> bool:
    buffer = layer.receive_buffer.get(channel)
    return buffer is None or buffer.empty()


async def receive(layer: ResilientRedisChannelLayer, channel: str) -> dict:
    return await asyncio.wait_for(layer.receive(channel), WAIT)


@pytest.mark.asyncio
async def test_a_group_message_reaches_both_processes_members_and_only_theirs():
    a, b = two_processes()
    try:
        a1, a2, b1 = await a.new_channel(), await a.new_channel(), await b.new_channel()
        await a.group_add("audience.g.red", a1)
        await b.group_add("audience.g.red", b1)
        await a.group_add("audience.g.blue", a2)
        await a.group_send_many([
            ("audience.g.red", {"type": "game.frames", "n": 1}),
            ("audience.g.blue", {"type": "game.frames", "n": 2}),
        ])  # fmt: skip
        assert await queued_in_redis(a, a1) == 0  # this process's copies never went to Redis
        assert await queued_in_redis(b, b1) == 1  # the other process's did
        assert (await receive(a, a1))["n"] == 1
        assert (await receive(a, a2))["n"] == 2
        assert (await receive(b, b1))["n"] == 1
        # nothing else is waiting for any of them: each got its audience's message only
        for layer, channel in ((a, a1), (a, a2), (b, b1)):
            assert nothing_waiting(layer, channel)
        assert await queued_in_redis(a, a1) == 0 and await queued_in_redis(b, b1) == 0
    finally:
        await a.flush()
        await b.flush()


@pytest.mark.asyncio
async def test_a_receiver_reading_redis_gets_a_local_message_without_waiting_for_redis():
    """The only receiver of a process is the one reading its Redis queue (BZPOPMIN, here
    for up to 30 s): a local message to it must end its receive, not wait for Redis."""
    a, b = two_processes()
    a.brpop_timeout = 30
    try:
        a1 = await a.new_channel()
        await a.group_add("audience.g.obs", a1)
        receiving = asyncio.ensure_future(a.receive(a1))
        await asyncio.sleep(0.2)  # (its reader is in BZPOPMIN by now)
        await a.group_send("audience.g.obs", {"type": "game.frames", "n": 7})
        assert (await asyncio.wait_for(receiving, WAIT))["n"] == 7
        # and a message from the other process still arrives through Redis
        b1 = await b.new_channel()
        await b.group_add("audience.g.obs", b1)
        await b.group_send("audience.g.obs", {"type": "game.frames", "n": 8})
        assert (await receive(a, a1))["n"] == 8
        assert (await receive(b, b1))["n"] == 8
    finally:
        await a.flush()
        await b.flush()


@pytest.mark.asyncio
async def test_local_messages_keep_their_order_and_a_discarded_channel_gets_none():
    a, _ = two_processes()
    try:
        a1, a2 = await a.new_channel(), await a.new_channel()
        for channel in (a1, a2):
            await a.group_add("game_x", channel)
        for n in range(20):
            await a.group_send("game_x", {"type": "game.nudge", "version": n})
        await a.group_discard("game_x", a2)
        await a.group_send("game_x", {"type": "game.nudge", "version": 20})
        assert [(await receive(a, a1))["version"] for _ in range(21)] == list(range(21))
        assert [(await receive(a, a2))["version"] for _ in range(20)] == list(range(20))
        assert nothing_waiting(a, a2)
    finally:
        await a.flush()


@pytest.mark.asyncio
async def test_a_send_from_another_thread_is_put_in_the_buffers_by_the_receivers_loop():
    """A computer player or the heartbeat sends from a thread of its own (async_to_sync, a
    loop of its own): asyncio queues are not thread-safe, so the local delivery must happen
    on the receivers' loop, which it also wakes up."""
    import threading

    from asgiref.sync import async_to_sync

    a, _ = two_processes()
    threads: list[int] = []
    put = a.put_in_buffers

    def recording(channels: list[str], message: dict) -> None:
        threads.append(threading.get_ident())
        put(channels, message)

    a.put_in_buffers = recording
    try:
        a1 = await a.new_channel()
        await a.group_add("audience.g.red", a1)
        receiving = asyncio.ensure_future(a.receive(a1))
        await asyncio.sleep(0.1)  # (receiving: the layer knows the receivers' loop)

        def from_a_thread() -> None:
            async_to_sync(a.group_send)("audience.g.red", {"type": "game.frames", "n": 3})

        await asyncio.to_thread(from_a_thread)
        assert (await asyncio.wait_for(receiving, WAIT))["n"] == 3
        assert threads == [threading.get_ident()]
    finally:
        await a.flush()


@pytest.mark.asyncio
async def test_another_process_gets_a_group_message_once_for_all_its_members():
    """GROUPS_SEND_SCRIPT: one queue entry per other process, whatever its number of members,
    handed to each of its members of that group (and a channel outside any process, which
    the layer cannot hand out, still gets its own copy)."""
    a, b = two_processes()
    try:
        b1, b2, b3 = await b.new_channel(), await b.new_channel(), await b.new_channel()
        for channel in (b1, b2):
            await b.group_add("audience.g.obs", channel)
        await b.group_add("audience.g.red", b3)  # (another group: must get nothing)
        await b.group_add("audience.g.obs", "plain-channel")  # (no "!": no process's)
        await a.group_send_many([("audience.g.obs", {"type": "game.frames", "n": 3})])
        assert await queued_in_redis(b, b1) == 1  # one for b1 and b2
        assert [(await receive(b, c))["n"] for c in (b1, b2)] == [3, 3]
        assert (await receive(b, "plain-channel"))["n"] == 3
        assert nothing_waiting(b, b3) and await queued_in_redis(b, b1) == 0
    finally:
        await a.flush()
        await b.flush()


@pytest.mark.asyncio
async def test_the_reader_goes_on_reading_and_wakes_only_the_receiver_of_a_message():
    """The process's Redis reader reads message after message: a message for one of many
    waiting sockets does not end the reader (which woke every waiting receiver)."""
    a, b = two_processes()
    try:
        channels = [await b.new_channel() for _ in range(5)]
        for i, channel in enumerate(channels):
            await b.group_add(f"audience.g{i}.red", channel)
        waiting = [asyncio.ensure_future(b.receive(c)) for c in channels]
        await asyncio.sleep(0.2)
        reader = b.reader
        await a.group_send("audience.g0.red", {"type": "game.frames", "n": 1})
        assert (await asyncio.wait_for(waiting[0], WAIT))["n"] == 1
        await asyncio.sleep(0.1)
        assert b.reader is reader and not reader.done()
        assert not any(w.done() for w in waiting[1:])
        await a.group_send("audience.g4.red", {"type": "game.frames", "n": 2})
        assert (await asyncio.wait_for(waiting[4], WAIT))["n"] == 2
        for w in waiting[1:4]:
            w.cancel()
        await asyncio.gather(*waiting[1:4], return_exceptions=True)
    finally:
        await a.flush()
        await b.flush()


@pytest.mark.asyncio
async def test_a_message_for_an_ended_consumer_leaves_no_buffer_behind():
    """A consumer that has ended may still be in a group for the moment its leaving takes: a
    message for it then (from this process or another) is dropped, not kept for ever."""
    a, b = two_processes()
    try:
        gone, live = await a.new_channel(), await a.new_channel()
        for channel in (gone, live):
            await a.group_add("audience.g.observers", channel)
        a.forget(gone)  # its consumer ended; its group_discard has not happened yet
        await a.group_send("audience.g.observers", {"type": "game.frames", "n": 1})
        await b.group_send("audience.g.observers", {"type": "game.frames", "n": 2})
        assert (await receive(a, live))["n"] == 1
        assert (await receive(a, live))["n"] == 2  # (the reader has handled b's message)
        assert gone not in a.receive_buffer
        assert gone not in a.open_channels and live in a.open_channels
    finally:
        for layer in (a, b):
            await layer.flush()
