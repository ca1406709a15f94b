"""Where one move's time goes, stage by stage, in a real daphne process:
`python -m bench.stages [MOVES]`.

Starts one server running `bench.stages:application` (the site plus timers wrapped around the
live path's functions, below), plays MOVES sequential moves of one game with one observer
from the client process (bench/client.py's one_game), then prints each stage's p50 / p99 in
ms (from the server's GET /__bench__/stages):

- hop: the move frame handed to the consumer -> the service starts in its thread;
- service: the service call (lock, engine, writes, COMMIT), of which commit is the COMMIT;
- handover: COMMIT done -> the event loop starts the layer's send;
- layer send: group_send_many, (local delivery first, then Redis for other processes);
- wake: a message put in a socket's buffer -> its consumer's handler runs;
- forward: the handler -> its frames written to the websocket;
- pool wait: a thread asking the pool for a connection -> getting one, and held: -> giving it
  back, apart for the action threads (moves), the sockets' lanes and the rest (pages, sweeps);
  service CPU: the service's own CPU time
  (the rest of its wall time waits for the database, the pool or the GIL).

A tool, not part of `make bench`; the timers cost a few microseconds each. `make soak STAGES=1`
runs its servers with the same timers (`soak_application`) and reports the stages too.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

_lock = threading.Lock()
_samples: defaultdict[str, list[float]] = defaultdict(list)
_commit_done = threading.local()


_outliers: list[tuple[float, str, float]] = []  # (wall-clock time, stage, ms) of slow ones
OUTLIER_MS = 200


def record(stage: str, seconds: float) -> None:
    with _lock:
        _samples[stage].append(seconds * 1000)
        if seconds * 1000 >= OUTLIER_MS:
            _outliers.append((time.time(), stage, round(seconds * 1000, 1)))


def _install() -> None:
    from django.db.backends.base import base as db_base

    from games.transport import broadcast, consumers, layers

    now = time.perf_counter

    original_act = consumers.act

    def act(action):
        handed = now()

        def timed(*args):
            started, cpu = now(), time.thread_time()
            record("hop", started - handed)
            try:
                return action(*args)
            finally:
                record("service", now() - started)
                record("service CPU", time.thread_time() - cpu)

        return original_act(timed)

    consumers.act = act

    from stratego_site import scheduler

    original_full = scheduler.GARBAGE.body

    def full_collection():
        started = now()
        try:
            return original_full()
        finally:
            record("full collection", now() - started)

    scheduler.GARBAGE.body = full_collection  # (before the scheduler starts: first request)

    original_commit = db_base.BaseDatabaseWrapper._commit

    def commit(self):
        started = now()
        try:
            return original_commit(self)
        finally:
            record("commit", now() - started)
            _commit_done.at = now()

    db_base.BaseDatabaseWrapper._commit = commit

    from django.db.backends.postgresql import base as postgresql

    original_connect = postgresql.DatabaseWrapper.get_new_connection

    def get_new_connection(self, conn_params):
        started = now()
        try:
            return original_connect(self, conn_params)
        finally:
            self.bench_lent_at = now()
            record(f"pool wait ({thread_kind()})", self.bench_lent_at - started)

    original_close = postgresql.DatabaseWrapper._close

    def close(self):
        lent = getattr(self, "bench_lent_at", None)
        try:
            return original_close(self)
        finally:
            if lent is not None:
                self.bench_lent_at = None
                record(f"held ({thread_kind()})", now() - lent)

    postgresql.DatabaseWrapper.get_new_connection = get_new_connection
    postgresql.DatabaseWrapper._close = close

    original_send = broadcast.send

    def send(sends, key=None, what=""):
        committed = getattr(_commit_done, "at", None)
        stamped = [(group, {**message, "_handed": committed}) for group, message in sends]
        return original_send(stamped, key, what)

    broadcast.send = send

    original_many = layers.ResilientRedisChannelLayer.group_send_many

    async def many(self, sends):
        started = now()
        handed = sends[0][1].get("_handed") if sends else None
        if handed is not None:
            record("handover", started - handed)
        stamped = [(group, {**message, "_delivered": now()}) for group, message in sends]
        try:
            return await original_many(self, stamped)
        finally:
            record("layer send", now() - started)

    layers.ResilientRedisChannelLayer.group_send_many = many

    original_others = layers.ResilientRedisChannelLayer.send_to_other_processes

    async def send_to_other_processes(self, sends):
        started = now()
        try:
            return await original_others(self, sends)
        finally:
            record("layer: Redis part", now() - started)

    layers.ResilientRedisChannelLayer.send_to_other_processes = send_to_other_processes

    from redis.asyncio import connection as redis_connection

    original_get = redis_connection.ConnectionPool.get_connection

    async def get_connection(self, *args, **kwargs):
        started = now()
        try:
            return await original_get(self, *args, **kwargs)
        finally:
            record("Redis connection wait", now() - started)

    redis_connection.ConnectionPool.get_connection = get_connection

    original_frames = consumers.GameConsumer.game_frames

    async def game_frames(self, event):
        started = now()
        if "_delivered" in event:
            record("wake", started - event["_delivered"])
        try:
            return await original_frames(self, event)
        finally:
            record("forward", now() - started)

    consumers.GameConsumer.game_frames = game_frames


def thread_kind() -> str:
    """Who borrows a connection: a move (the action threads), a socket's handshake or
    catch-up (its lane), or a page and the rest."""
    name = threading.current_thread().name
    if name.startswith("action"):
        return "moves"
    if name.startswith("socket-lane"):
        return "sockets"
    return "pages, others"


KINDS = ("moves", "sockets", "pages, others")
STAGES = ("hop", "service", "service CPU", "commit",
          *(f"pool wait ({k})" for k in KINDS), *(f"held ({k})" for k in KINDS),
          "handover", "layer send", "layer: Redis part", "Redis connection wait", "wake",
          "forward", "full collection")  # fmt: skip
_installed = False


async def serve_stages(scope, receive, send, site) -> None:
    global _installed
    if not _installed:
        _install()
        _installed = True
    if scope["type"] == "http" and scope["path"] in ("/__bench__/stages", "/__bench__/outliers"):
        with _lock:
            wanted = _samples if scope["path"].endswith("stages") else _outliers
            body = json.dumps(wanted).encode()
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json")]})  # fmt: skip
        await send({"type": "http.response.body", "body": body})
        return
    await site(scope, receive, send)


async def application(scope, receive, send) -> None:
    from bench.counted_asgi import application as counted  # (the site: Django set up first)

    await serve_stages(scope, receive, send, counted)


async def soak_application(scope, receive, send) -> None:
    from stratego_site.asgi import application as site

    await serve_stages(scope, receive, send, site)


def summary(samples: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    """Each stage's p50, p99, most and mean in ms, and its count."""
    return {stage: {"p50": pct(values, 0.5), "p99": pct(values, 0.99), "most": max(values),
                    "mean": statistics.mean(values), "n": len(values)}
            for stage in STAGES if (values := samples.get(stage))}  # fmt: skip


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    import urllib.request

    from . import fixtures, stack
    from .__main__ import PORTS, SEED, run_client

    moves = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    env = stack.server_env()
    stack.create_database(env)
    fixtures.setup_django(env)
    work = Path(tempfile.mkdtemp(prefix="bench-stages-"))
    server = stack.Server("bench.stages:application", stack.free_port(PORTS + 60), env,
                          work / "daphne.log").start()  # fmt: skip
    try:
        game = fixtures.ready_games(1, SEED + 7)
        plan = {"servers": [server.url], "seed": SEED, "move_timeout": 3,
                "scenario": "one_game", "games": game, "moves": moves}  # fmt: skip
        result = run_client(plan, work)
        address = server.url.replace("ws://", "http://") + "/__bench__/stages"
        with urllib.request.urlopen(address, timeout=30) as response:
            samples = json.loads(response.read())
    finally:
        server.stop()
    print(f"{result['moves']} moves; move -> opponent p50 {result['opponent']['p50']} ms, "
          f"p99 {result['opponent']['p99']} ms; load {stack.load_average()}")  # fmt: skip
    for stage, s in summary(samples).items():
        print(f"{stage:>18}: p50 {s['p50']:7.3f} ms  p99 {s['p99']:7.3f} ms"
              f"  mean {s['mean']:7.3f} ms  n={s['n']}")  # fmt: skip


if __name__ == "__main__":
    main()
