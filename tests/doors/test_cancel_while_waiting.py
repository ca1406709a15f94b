"""The legacy door's waits end when their task is cancelled, even at the instant what they
wait for arrives (asyncio.wait_for in Python 3.11 returned the result then and lost the
cancellation: the feed's poll loop went on for ever, and so did the test event loop's shutdown
that waited for it, with a channel layer receive pending).

The nudge comes through the in-memory channel layer (channels' own, the embedded default):
its send wakes the receiver within the same step of the event loop as the cancellation, which
the Redis layer's network round trip cannot promise."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import InMemoryChannelLayer

from games.transport.legacy.events import GameFeed
from games.transport.legacy.frames import FrameReader, within


async def settle() -> None:
    for _ in range(5):  # the waiting task starts and blocks
        await asyncio.sleep(0)


async def test_a_feed_cancelled_as_its_nudge_arrives_is_cancelled():
    feed = GameFeed("no-such-game", 0)
    feed.layer = InMemoryChannelLayer()
    feed.channel = await feed.layer.new_channel("legacy.")
    waiting = asyncio.create_task(feed.wait_nudge(0))
    await settle()
    await feed.layer.send(feed.channel, {"type": "game.nudge", "version": 1})
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting


async def test_a_frame_read_cancelled_as_its_bytes_arrive_is_cancelled():
    stream = asyncio.StreamReader()
    reading = asyncio.create_task(FrameReader(stream).read_int())
    await settle()
    stream.feed_data(b"\x00\x00\x00\x07")
    reading.cancel()
    with pytest.raises(asyncio.CancelledError):
        await reading


async def test_within_still_times_out_and_returns():
    with pytest.raises(TimeoutError):
        await within(asyncio.sleep(5), 0.05)
    assert await within(asyncio.sleep(0, result="done"), 1) == "done"
