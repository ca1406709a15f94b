"""The Redis channel layer, made to outlive a Redis restart (issue 9).

channels-redis reconnects its connections by itself (redis-py's pool opens a new one after a
broken one), but a restart still hurt in two ways:

- `receive` raised while Redis was away: the exception reached the consumer's dispatch loop,
  which died, so every socket of the process closed with 1011 and a logged traceback, one
  after the other (each next receiver took the read over and failed in turn);
- a restarted Redis (with nothing saved) has forgotten the groups, so a socket that survived
  would get nothing any more.

So here `receive` waits the outage out instead of raising: the first receiver that fails
probes Redis (PING, with a growing pause) until it answers, puts this process's channels back
in their groups, and hands every channel of the process a `layer.resumed` message, once per
outage; the others wait for it behind the same lock. A consumer answers `layer.resumed` by
reading what it missed (messages in flight during the outage are lost; docs/protocol.md,
"Versions"). `group_add` and `group_discard` remember the memberships first, so a socket that
joins during the outage is put in its groups when Redis is back.

No task is started here: the waiting happens in the receiving consumer's own task, in
`asyncio.sleep` and Redis calls, so a cancelled consumer (a closed socket, a test loop's
teardown) stops waiting at once; CancelledError is never caught.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict

from channels_redis.core import RedisChannelLayer
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

REDIS_DOWN = (RedisConnectionError, RedisTimeoutError, ConnectionError)
FIRST_PAUSE = 0.1  # seconds between probes of an absent Redis, doubling up to
LONGEST_PAUSE = 2.0
RESUMED = {"type": "layer.resumed"}
# channels_redis's: put the messages of the backup queue back in front of the channel's queue.
CLEANUP_SCRIPT = """
    local backed_up = redis.call('ZRANGE', ARGV[2], 0, -1, 'WITHSCORES')
    for i = #backed_up, 1, -2 do
        redis.call('ZADD', ARGV[1], backed_up[i], backed_up[i - 1])
    end
    redis.call('DEL', ARGV[2])
"""


def raise_if_cancelled() -> None:
    """Raise CancelledError if the current task was asked to cancel and something below
    swallowed it (asyncio counts the requests: Task.cancelling())."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


class ResilientRedisChannelLayer(RedisChannelLayer):
    """RedisChannelLayer whose receivers wait out a Redis outage and are told when it ends."""

    def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003 - RedisChannelLayer's
        super().__init__(*args, **kwargs)
        self.memberships: defaultdict[str, set[str]] = defaultdict(set)  # group -> channels
        self.outages = 0  # outages recovered from (a receiver compares it with its own)
        self.recovering: asyncio.Lock | None = None
        self.recovering_loop: asyncio.AbstractEventLoop | None = None

    async def group_add(self, group: str, channel: str) -> None:
        self.memberships[group].add(channel)
        try:
            await super().group_add(group, channel)
        except REDIS_DOWN as exc:  # the recovery puts it in the group
            logger.warning("channel layer: group_add(%s) while Redis is away: %r", group, exc)

    async def group_discard(self, group: str, channel: str) -> None:
        members = self.memberships.get(group)
        if members is not None:
            members.discard(channel)
            if not members:
                del self.memberships[group]
        try:
            await super().group_discard(group, channel)
        except REDIS_DOWN as exc:  # a restarted Redis has forgotten it anyway
            logger.warning("channel layer: group_discard(%s) while Redis is away: %r", group, exc)

    async def _brpop_with_clean(self, index: int, channel: str, timeout: int) -> bytes | None:
        """channels_redis's receive step (a clean-up script, then BZPOPMIN) with the task's
        cancellation checked after each Redis call. redis-py 8 sometimes lets a command finish
        when the task was cancelled while it waited for the reply, dropping the
        CancelledError (7 of 80 receives cancelled a few ms in: scripts/redis-receive-cancel-
        probe); channels_redis then went on to BZPOPMIN and looped for ever, a task that
        outlived its cancel (the hang at a test loop's end, and polling leftovers in daphne).
        A message popped meanwhile stays in the backup queue: the next receive restores it."""
        connection = self.connection(index)
        backup_queue = self._backup_channel_name(channel)
        await connection.eval(CLEANUP_SCRIPT, 0, channel, backup_queue)
        raise_if_cancelled()
        result = await connection.bzpopmin(channel, timeout=timeout)
        if result is None:
            raise_if_cancelled()
            return None
        _, member, timestamp = result
        await connection.zadd(backup_queue, {member: float(timestamp)})
        raise_if_cancelled()
        return member

    async def receive(self, channel: str) -> dict:
        while True:
            seen = self.outages
            try:
                return await super().receive(channel)
            except REDIS_DOWN as exc:
                await self.recover(seen, exc)  # then the loop reads the `layer.resumed`

    async def recover(self, seen: int, exc: BaseException) -> None:
        """Once per outage (whichever receiver comes first): wait for Redis, rejoin the
        groups, and queue `layer.resumed` for every channel of this process."""
        async with self.recovery_lock():
            if self.outages != seen:
                return  # recovered while this receiver was failing
            logger.warning("channel layer: Redis is away (%r); waiting for it", exc)
            while True:
                await self.wait_for_redis()
                try:
                    channels = await self.rejoin()
                    break
                except REDIS_DOWN:  # away again already
                    continue
            self.outages += 1
            for name in channels:
                self.receive_buffer[name].put_nowait(dict(RESUMED))
            logger.warning("channel layer: Redis is back; %d channel(s) resumed", len(channels))

    def recovery_lock(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        if self.recovering is None or self.recovering_loop is not loop:
            self.recovering, self.recovering_loop = asyncio.Lock(), loop
        return self.recovering

    async def wait_for_redis(self) -> None:
        pause = FIRST_PAUSE
        while True:
            await asyncio.sleep(pause)
            try:
                for index in range(self.ring_size):
                    await self.connection(index).ping()
                return
            except REDIS_DOWN:
                pause = min(2 * pause, LONGEST_PAUSE)

    async def rejoin(self) -> set[str]:
        """Put every remembered membership back (a restarted Redis forgot them); the
        process-local channels concerned. Redis going away again raises: the caller's
        recovery waits for it again."""
        channels: set[str] = set()
        for group, members in list(self.memberships.items()):
            for channel in list(members):
                await super().group_add(group, channel)
                channels.add(channel)
        return {name for name in channels if "!" in name}
