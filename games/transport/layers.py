"""The Redis channel layer, made to outlive a Redis restart.

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

Local delivery (the live path's speed). channels_redis sends a group message through
Redis even to the sockets of the sending process: four round trips to send (ZREMRANGEBYSCORE,
ZRANGE, a clean-up pipeline, a Lua script) and four more to receive it (a clean-up script,
BZPOPMIN, the backup ZADD, its ZPOPMIN), the receives of a process one after the other. Here
`group_send` hands the message at once to the receive buffers of this process's members of the
group (the memberships kept above: the same set Redis holds for this process), and leaves
the other processes' members to one Lua script, one round trip for all the groups of a commit
(GROUPS_SEND_SCRIPT): it reads each group's members and puts the message once in the queue of
each other process that has some, marked with its group; that process gives it to its own
members of the group. Which channels get the message does not change, only the way; a
message for this process never waits for Redis, and still reaches it when Redis is away.
(With several Redis hosts, or per-channel capacities, the members are read first and the
messages sent as channels_redis sends them.)

One task is started here, the reader of the process's Redis queue that the receivers share
(`receive_local`); it is cancelled with the last receiver (a second after it, when that one
returned a message instead), and a cancelled reader ends (`raise_if_cancelled`). It reads
with one BZPOPMIN per message, without channels_redis's backup queue (see `read_one` for the
trade). The rest of the waiting happens in the receiving consumer's own task, in
`asyncio.sleep` and Redis calls, so a cancelled consumer (a closed socket, a test loop's
teardown) stops waiting at once; CancelledError is never swallowed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .compat import RedisChannelLayer, loop_connection_pool

logger = logging.getLogger(__name__)

REDIS_DOWN = (RedisConnectionError, RedisTimeoutError, ConnectionError)
FIRST_PAUSE = 0.1  # seconds between probes of an absent Redis, doubling up to
LONGEST_PAUSE = 2.0
RESUMED = {"type": "layer.resumed"}
IDLE_READER_SECONDS = 1.0  # the Redis reader of a process nobody receives on stops after
# The reader's BZPOPMIN waits at most this long (channels_redis waits 5 s). A reader cancelled
# while its BZPOPMIN is in flight is not interrupted: redis-py lets the command finish, so
# the task (and an event loop closing around it: a daphne stopping, a test's loop) waits for
# the timeout. An idle process pays one empty BZPOPMIN a second for it.
READER_BLOCK_SECONDS = 1
# channels_redis's: put the messages of the backup queue back in front of the channel's queue.
CLEANUP_SCRIPT = """
    local backed_up = redis.call('ZRANGE', ARGV[2], 0, -1, 'WITHSCORES')
    for i = #backed_up, 1, -2 do
        redis.call('ZADD', ARGV[1], backed_up[i], backed_up[i - 1])
    end
    redis.call('DEL', ARGV[2])
"""

# channels_redis's group_send script: each channel key gets the message unless it is full.
GROUP_SEND_SCRIPT = """
    local over_capacity = 0
    local current_time = ARGV[#ARGV - 1]
    local expiry = ARGV[#ARGV]
    for i=1,#KEYS do
        if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + #KEYS]) then
            redis.call('ZADD', KEYS[i], current_time, ARGV[i])
            redis.call('EXPIRE', KEYS[i], expiry)
        else
            over_capacity = over_capacity + 1
        end
    end
    return over_capacity
"""


# A commit's groups in one round trip: each group's expired members dropped, its members read,
# and the message put once in the queue of each other process with members, capacity
# permitting, as channels_redis's script puts it; that process gives it to its own members of
# the group (`read_one`). KEYS: the groups' keys. ARGV: the members' expiry cutoff, this
# process's queue name (never sent to), the queues' key prefix, now, a queue's expiry, its
# stale cutoff, its capacity, then one message per group. Returns the number of queues that
# were full, then (group number, channel) for each member that is not a process channel, for
# the caller to send as before.
GROUPS_SEND_SCRIPT = """
    local cutoff, own, prefix = ARGV[1], ARGV[2], ARGV[3]
    local now, expiry, stale, capacity = ARGV[4], ARGV[5], ARGV[6], tonumber(ARGV[7])
    local result = {0}
    for i = 1, #KEYS do
        redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, cutoff)
        local done = {}
        for _, channel in ipairs(redis.call('ZRANGE', KEYS[i], 0, -1)) do
            local bang = string.find(channel, '!', 1, true)
            if bang == nil then
                result[#result + 1] = i
                result[#result + 1] = channel
            else
                local process = string.sub(channel, 1, bang)
                if process ~= own and not done[process] then
                    done[process] = true
                    local queue = prefix .. process
                    redis.call('ZREMRANGEBYSCORE', queue, 0, stale)
                    if redis.call('ZCOUNT', queue, '-inf', '+inf') < capacity then
                        redis.call('ZADD', queue, now, ARGV[7 + i])
                        redis.call('EXPIRE', queue, expiry)
                    else
                        result[1] = result[1] + 1
                    end
                end
            end
        end
    end
    return result
"""
GROUP_KEY = "__asgi_group__"  # (in a message sent by GROUPS_SEND_SCRIPT: its group)


def raise_if_cancelled() -> None:
    """Raise CancelledError if the current task was asked to cancel and something below
    swallowed it (asyncio counts the requests: Task.cancelling())."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


def retrieve(task: asyncio.Task) -> None:
    """A reader's exception is the receivers' (they read it); none is left unretrieved."""
    if not task.cancelled():
        task.exception()


class ResilientRedisChannelLayer(RedisChannelLayer):
    """RedisChannelLayer whose receivers wait out a Redis outage and are told when it ends."""

    def create_pool(self, index: int):
        """A connection pool that lends without a lock (compat.LoopConnectionPool)."""
        return loop_connection_pool(self.hosts[index])

    def __init__(self, *args, **kwargs) -> None:  # (RedisChannelLayer's)
        super().__init__(*args, **kwargs)
        self.memberships: defaultdict[str, set[str]] = defaultdict(set)  # group -> channels
        self.outages = 0  # outages recovered from (a receiver compares it with its own)
        self.recovering: asyncio.Lock | None = None
        self.recovering_loop: asyncio.AbstractEventLoop | None = None
        self.reader: asyncio.Task | None = None  # reads the process's Redis queue (receive_local)
        self.receive_loop: asyncio.AbstractEventLoop | None = None  # the receivers' loop
        self.groups_script = None  # GROUPS_SEND_SCRIPT, registered on first use
        # The channels of this process's live consumers: a message for any other one (a
        # consumer that has ended, still in a group for the moment its leaving takes) would
        # make a receive buffer that nobody ever empties.
        self.open_channels: set[str] = set()

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

    def is_local(self, channel: str) -> bool:
        """A channel of this process (its receive buffers are ours)."""
        head, bang, _ = channel.partition("!")
        return bool(bang) and head.endswith(self.client_prefix)

    async def group_send(self, group: str, message: dict) -> None:
        """To this process's members at once, then to the other processes' through Redis."""
        await self.group_send_many([(group, message)])

    async def group_send_many(self, sends: list[tuple[str, dict]]) -> None:
        """Several group_sends (a commit's three audiences): each to this process's members at
        once, in order; then one round trip for all the groups' members, and the messages of
        other processes' members sent as group_send would."""
        for group, message in sends:
            assert self.require_valid_group_name(group), "Group name not valid"
            members = tuple(self.memberships.get(group, ()))  # (a copy: see deliver)
            local = [name for name in members if self.is_local(name)]
            if local:
                self.deliver(local, message)
        if len(self.hosts) == 1 and not self.channel_capacity:
            await self.send_to_other_processes(sends)
            return
        members = await self.groups_members([group for group, _ in sends])
        remote = []
        for (group, message), names in zip(sends, members, strict=True):
            others = [name for name in names if not self.is_local(name)]
            if others:
                remote.append(self.send_to_channels(group, others, message))
        await asyncio.gather(*remote)  # (as channels' group_sends were: side by side)

    async def send_to_other_processes(self, sends: list[tuple[str, dict]]) -> None:
        """The groups' messages to the other processes' members, in one round trip
        (GROUPS_SEND_SCRIPT): each other process with members gets a message once, marked
        with its group, and hands it to its own members. (This took two pipelines, the
        members' lookup and then the sends: about a sixth of a process's Python time at 300
        moves/s on two processes, py-spy --gil.)"""
        own = f"specific.{self.client_prefix}!"  # (new_channel's names, up to the "!")
        now = time.time()
        args = [int(now) - self.group_expiry, own, self.prefix, now, self.expiry,
                int(now) - int(self.expiry), self.get_capacity(own)]  # fmt: skip
        args += [self.serialize({**message, GROUP_KEY: group}) for group, message in sends]
        keys = [self._group_key(group) for group, _ in sends]
        if self.groups_script is None:
            self.groups_script = self.connection(0).register_script(GROUPS_SEND_SCRIPT)
        result = await self.groups_script(keys=keys, args=args, client=self.connection(0))
        if result[0] > 0:
            logger.info("%s process queues over capacity in groups %s", result[0], keys)
        singles: defaultdict[int, list[str]] = defaultdict(list)  # (none in this site)
        for position, name in zip(result[1::2], result[2::2], strict=True):
            singles[int(position) - 1].append(name.decode("utf8"))
        for position, names in singles.items():
            group, message = sends[position]
            await self.send_to_channels(group, names, message)

    def deliver(self, channels: list[str], message: dict) -> None:
        """Into the receive buffers (as channels_redis's receive puts a message it popped for
        several channels of the process: one dict for all; consumers never change it). A send
        from another thread's event loop (a computer player, the heartbeat: async_to_sync) is
        handed to the receivers' loop: asyncio queues are not thread-safe, and their loop
        would not even wake up for it."""
        copy = dict(message)  # (the sender's dict may change after the send; ours may not)
        loop = self.receive_loop
        if loop is not None and loop is not asyncio.get_running_loop() and loop.is_running():
            try:
                loop.call_soon_threadsafe(self.put_in_buffers, channels, copy)
                return
            except RuntimeError:  # closed meanwhile: nobody receives there any more
                pass
        self.put_in_buffers(channels, copy)

    def put_in_buffers(self, channels: list[str], message: dict) -> None:
        for name in channels:
            if name in self.open_channels:
                self.receive_buffer[name].put_nowait(message)

    async def new_channel(self, prefix: str = "specific") -> str:
        name = await super().new_channel(prefix)
        self.open_channels.add(name)
        return name

    def forget(self, channel: str) -> None:
        """The consumer of `channel` has ended: what still comes for it is dropped."""
        self.open_channels.discard(channel)
        self.receive_buffer.pop(channel, None)

    async def groups_members(self, groups: list[str]) -> list[list[str]]:
        """Each group's channels (all processes'), expired entries dropped: one round trip
        per Redis host concerned (one, without sharding)."""
        by_index: defaultdict[int, list[int]] = defaultdict(list)
        for position, group in enumerate(groups):
            by_index[self.consistent_hash(group)].append(position)
        members: list[list[str]] = [[] for _ in groups]
        expired = int(time.time()) - self.group_expiry
        for index, positions in by_index.items():
            async with self.connection(index).pipeline(transaction=False) as pipe:
                for position in positions:
                    key = self._group_key(groups[position])
                    pipe.zremrangebyscore(key, min=0, max=expired)
                    pipe.zrange(key, 0, -1)
                replies = await pipe.execute()
            for position, names in zip(positions, replies[1::2], strict=True):
                members[position] = [name.decode("utf8") for name in names]
        return members

    async def send_to_channels(self, group: str, channels: list[str], message: dict) -> None:
        """channels_redis's group_send after its ZRANGE, with the expiry clean-up and the Lua
        script in one pipeline per Redis host (one round trip each, not two)."""
        by_connection, messages, capacities = self._map_channel_keys_to_connection(
            channels, message
        )
        for index, keys in by_connection.items():
            args = [messages[key] for key in keys] + [capacities[key] for key in keys]
            args += [time.time(), self.expiry]
            async with self.connection(index).pipeline(transaction=False) as pipe:
                for key in keys:
                    pipe.zremrangebyscore(key, min=0, max=int(time.time()) - int(self.expiry))
                pipe.eval(GROUP_SEND_SCRIPT, len(keys), *keys, *args)
                over_capacity = (await pipe.execute())[-1]
            if over_capacity > 0:
                logger.info("%s of %s channels over capacity in group %s",
                            over_capacity, len(channels), group)  # fmt: skip

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
                if "!" not in channel:
                    return (await self.receive_single(channel))[1]
                return await self.receive_local(channel)
            except REDIS_DOWN as exc:
                await self.recover(seen, exc)  # then the loop reads the `layer.resumed`

    async def receive_local(self, channel: str) -> dict:
        """A process channel's next message: from its buffer, which local delivery fills at
        once and a reader of the process's Redis queue fills with what other processes sent.
        (channels_redis's receive lets one receiver at a time read Redis on behalf of all,
        blocked in BZPOPMIN: a local delivery to that receiver's own channel would wait for
        the next Redis message. Here every receiver waits on its buffer, and on the shared
        reader only to hear of its failure: the reader reads message after message, so a
        message wakes only the receivers it is for, not every waiting socket of the process.
        The reader is cancelled when the last receiver is, or a second after the last one
        returned a message, if none came meanwhile.)"""
        assert self.non_local_name(channel).endswith(self.client_prefix + "!"), "Wrong prefix"
        self.receive_loop = asyncio.get_running_loop()  # (where deliver puts messages)
        self.receive_count += 1
        cancelled = False
        try:
            buffer = self.receive_buffer[channel]
            while buffer.empty():
                reader = self.redis_reader(self.non_local_name(channel))
                getter = asyncio.ensure_future(buffer.get())
                try:
                    await asyncio.wait([reader, getter], return_when=asyncio.FIRST_COMPLETED)
                except asyncio.CancelledError:
                    cancelled = True
                    getter.cancel()
                    del self.receive_buffer[channel]  # (as channels_redis: the consumer is gone)
                    raise
                if getter.done():
                    message = getter.result()
                    if buffer.empty():
                        del self.receive_buffer[channel]
                    return message
                getter.cancel()
                reader.result()  # raises what the reader met (Redis away: the caller recovers)
            message = buffer.get_nowait()
            if buffer.empty():
                del self.receive_buffer[channel]
            return message
        finally:
            self.receive_count -= 1
            if self.receive_count == 0 and cancelled:  # the last consumer went away (a
                self.stop_reader()  # closed socket, the process stopping): nothing to wait for
            elif self.receive_count == 0:  # (not at once: a consumer receives again right
                # after handling a message, and a BZPOPMIN cancelled in flight costs a
                # connection)
                asyncio.get_running_loop().call_later(IDLE_READER_SECONDS, self.stop_idle_reader)

    def redis_reader(self, real_channel: str) -> asyncio.Task:
        """The task reading this process's Redis queue into the buffers, shared by the
        receivers (a new one once it has stopped or failed, or on another event loop)."""
        loop = asyncio.get_running_loop()
        reader = self.reader
        if reader is None or reader.done() or reader.get_loop() is not loop:
            reader = self.reader = loop.create_task(self.read_messages(real_channel))
            reader.add_done_callback(retrieve)
        return reader

    async def read_messages(self, real_channel: str) -> None:
        """Message after message, until stop_reader cancels it or Redis fails (which ends the
        task, and so wakes every receiver to recover). It once read one message and ended:
        each message from another process then woke every waiting socket of this one, each
        to find its buffer empty and wait again (50 sockets: a millisecond of CPU a move)."""
        while True:
            await self.read_one(real_channel)

    async def read_one(self, real_channel: str) -> None:
        """One message of the process's Redis queue into its channels' buffers: one BZPOPMIN
        (channels_redis's receive_single takes four round trips: a clean-up script, BZPOPMIN,
        a copy to a backup queue and its removal, so that a receive cancelled between the pop
        and the delivery loses nothing). The trade: the reader is cancelled only a second
        after the last receiver left, and a message it popped at that very moment is lost,
        as messages lost in a Redis outage are; the sockets' version gaps, nudges and late
        acks bring back what they missed (docs/protocol.md, "Versions")."""
        key = self.prefix + real_channel
        connection = self.connection(self.consistent_hash(real_channel))
        result = None
        while result is None:
            result = await connection.bzpopmin(key, timeout=READER_BLOCK_SECONDS)
            raise_if_cancelled()
        message = self.deserialize(result[1])
        group = message.pop(GROUP_KEY, None)
        if group is not None:  # (GROUPS_SEND_SCRIPT's: for this process's members of it)
            channels = [name for name in self.memberships.get(group, ()) if self.is_local(name)]
        else:
            channels = message.pop("__asgi_channel__", None) or [real_channel]
        self.put_in_buffers(channels if isinstance(channels, list) else [channels], message)

    def stop_idle_reader(self) -> None:
        if self.receive_count == 0:
            self.stop_reader()

    def stop_reader(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
            self.reader = None

    async def flush(self) -> None:
        self.stop_reader()
        await super().flush()

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
            self.put_in_buffers(list(channels), dict(RESUMED))
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


def forget_channel(layer: object, channel: str) -> None:
    """A consumer has ended: its channel is forgotten by this layer (the other layers, the
    in-memory one of a development server, keep no buffer for it)."""
    if isinstance(layer, ResilientRedisChannelLayer):
        layer.forget(channel)
