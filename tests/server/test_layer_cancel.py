"""A channel-layer receive ends when its task is cancelled, whenever the cancel comes: redis-py
8 sometimes finishes a command whose task was cancelled while it waited for the reply, and
channels_redis's receive then went on to BZPOPMIN and looped for ever
(games/transport/layers.py)."""

from __future__ import annotations

import asyncio
import os
import random
import uuid

import pytest
from channels_redis.core import RedisChannelLayer

from games.transport.layers import ResilientRedisChannelLayer

REDIS_URL = os.environ.get("REDIS_URL", "redis://localhost:6379/0")
DELAYS = [0, 0.0005, 0.001, 0.002, 0.003, 0.005]  # into the receive's first Redis calls


async def receives_left_running(layer_class: type[RedisChannelLayer], runs: int) -> int:
    """How many of `runs` receives, each cancelled a few milliseconds after it started, were
    still running 2 s later (a BZPOPMIN times out after 1 s here, so a receive that saw its
    cancel is long gone)."""
    layer = layer_class(hosts=[REDIS_URL], prefix=f"cancel-{uuid.uuid4().hex[:8]}")
    layer.brpop_timeout = 1
    rng = random.Random(2026)
    left = 0
    try:
        for _ in range(runs):
            channel = await layer.new_channel()
            receiving = asyncio.ensure_future(layer.receive(channel))
            await asyncio.sleep(rng.choice(DELAYS))
            receiving.cancel()
            done, _ = await asyncio.wait([receiving], timeout=2)
            if not done:
                left += 1
                receiving.cancel()  # once more, so the test itself ends
                await asyncio.wait([receiving], timeout=3)
    finally:
        await layer.flush()
    return left


@pytest.mark.asyncio
async def test_a_cancelled_receive_always_ends():
    assert await receives_left_running(ResilientRedisChannelLayer, 120) == 0
