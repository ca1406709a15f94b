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
- forward: the handler -> its frames written to the websocket.

A tool, not part of `make bench`; the timers cost a few microseconds each.
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


def record(stage: str, seconds: float) -> None:
    with _lock:
        _samples[stage].append(seconds * 1000)


def _install() -> None:
    from django.db.backends.base import base as db_base

    from games.transport import broadcast, consumers, layers

    now = time.perf_counter

    original_act = consumers.act

    def act(action):
        handed = now()

        def timed(*args):
            started = now()
            record("hop", started - handed)
            try:
                return action(*args)
            finally:
                record("service", now() - started)

        return original_act(timed)

    consumers.act = act

    original_commit = db_base.BaseDatabaseWrapper._commit

    def commit(self):
        started = now()
        try:
            return original_commit(self)
        finally:
            record("commit", now() - started)
            _commit_done.at = now()

    db_base.BaseDatabaseWrapper._commit = commit

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


_installed = False


async def application(scope, receive, send) -> None:
    global _installed
    from bench.counted_asgi import application as counted  # (the site: Django set up first)

    if not _installed:
        _install()
        _installed = True
    if scope["type"] == "http" and scope["path"] == "/__bench__/stages":
        with _lock:
            body = json.dumps(_samples).encode()
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json")]})  # fmt: skip
        await send({"type": "http.response.body", "body": body})
        return
    await counted(scope, receive, send)


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
    for stage in ("hop", "service", "commit", "handover", "layer send", "wake", "forward"):
        values = samples.get(stage) or [0.0]
        print(f"{stage:>10}: p50 {pct(values, 0.5):7.3f} ms  p99 {pct(values, 0.99):7.3f} ms"
              f"  mean {statistics.mean(values):7.3f} ms  n={len(values)}")  # fmt: skip


if __name__ == "__main__":
    main()
