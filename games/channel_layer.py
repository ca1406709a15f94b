"""The Redis channel layer, made to wait out a Redis restart.

channels-redis's `receive` raises when its connection to Redis breaks (a restart, a failover,
a dropped connection): the exception reaches the consumer's dispatch loop, which dies, so the
socket is closed with 1011 and daphne logs a traceback, for every socket of the process at
once. Here `receive` retries with a short backoff instead, and once Redis answers again the
process puts its sockets back in their groups (a restarted Redis that keeps nothing on disk
has forgotten them). Messages that were in flight are lost, as they would be in any restart;
a socket finds out by the version gap of the next event it gets and reads what it missed
(docs/protocol.md, "Versions").
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict

from channels_redis.core import RedisChannelLayer
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

RETRY_FIRST_SECONDS = 0.1
RETRY_MAX_SECONDS = 2.0
REDIS_DOWN = (RedisConnectionError, RedisTimeoutError, ConnectionError, OSError)


class ResilientRedisChannelLayer(RedisChannelLayer):
    def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003 - RedisChannelLayer's
        super().__init__(*args, **kwargs)
        self.memberships: defaultdict[str, set[str]] = defaultdict(set)  # group -> channels
        self.rejoined_at = 0.0
        self.rejoin_lock: asyncio.Lock | None = None

    async def group_add(self, group: str, channel: str) -> None:
        self.memberships[group].add(channel)
        await super().group_add(group, channel)

    async def group_discard(self, group: str, channel: str) -> None:
        members = self.memberships.get(group)
        if members is not None:
            members.discard(channel)
            if not members:
                del self.memberships[group]
        await super().group_discard(group, channel)

    async def receive(self, channel: str) -> dict:
        delay = RETRY_FIRST_SECONDS
        while True:
            try:
                return await super().receive(channel)
            except REDIS_DOWN as exc:
                failed_at = time.monotonic()
                logger.warning("channel layer: Redis unreachable (%r), retrying", exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MAX_SECONDS)
                await self.rejoin(failed_at)

    async def rejoin(self, failed_at: float) -> None:
        """Put this process's sockets back in their groups, once per outage (whichever
        receiver gets there first does it for all)."""
        if self.rejoin_lock is None:
            self.rejoin_lock = asyncio.Lock()
        async with self.rejoin_lock:
            if self.rejoined_at > failed_at:
                return
            try:
                for group, channels in list(self.memberships.items()):
                    for member in list(channels):
                        await super().group_add(group, member)
            except REDIS_DOWN:
                return  # still down: the next failed receive tries again
            self.rejoined_at = time.monotonic()
