"""A door's feed stops when its task is cancelled, even when the cancel comes just as a
message arrived (Python 3.11's asyncio.wait_for swallowed such a cancel: the feed's loop then
waited again, a task that ignored its cancellation; the hang at a test loop's end)."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import InMemoryChannelLayer

from games.transport.legacy.events import GameFeed


@pytest.mark.asyncio
async def test_a_cancel_as_the_nudge_arrives_ends_the_wait():
    feed = GameFeed("nogame", 0)
    feed.layer = InMemoryChannelLayer()  # a receive with a message waiting never suspends
    feed.channel = await feed.layer.new_channel("legacy.")
    await feed.layer.send(feed.channel, {"type": "game.nudge", "version": 1})

    async def wait_forever() -> None:
        while True:
            await feed.wait_nudge(0)

    task = asyncio.create_task(wait_forever())
    await asyncio.sleep(0)  # the task now waits; its receive is scheduled to run next
    asyncio.get_running_loop().call_soon(task.cancel)  # right after the receive completes
    done, _ = await asyncio.wait([task], timeout=5)
    assert task in done and task.cancelled()
