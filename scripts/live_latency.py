"""Move -> opponent latency of one game on a real daphne (PostgreSQL + Redis): a quick
before/after check of the live path, not the benchmark (that is `make bench`).

usage: DATABASE_URL=postgres://.../<empty db> REDIS_URL=redis://... \\
       .venv/bin/python scripts/live_latency.py SRC_DIR PORT MOVES

SRC_DIR is the checkout to serve (this one, or an older commit exported with git archive);
the database is migrated, one classic game gets random setups, and the two players make
MOVES random legal moves, each timed from the mover's send to the opponent's frame.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time


def prepare(src: str) -> tuple[str, list]:
    """Migrate, and a classic game in play between two guests: its id and the guests."""
    sys.path.insert(0, src)
    os.chdir(src)
    os.environ.update(DJANGO_SETTINGS_MODULE="stratego_site.settings", CHANNEL_PREFIX="lat9")
    import django

    django.setup()
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command
    from django.db import connections

    from games import services
    from games.domain.identity import NICKNAME_KEY, Identity

    call_command("migrate", verbosity=0)

    def guest(name: str) -> Identity:
        session = SessionStore()
        session[NICKNAME_KEY] = name
        session.create()
        return Identity(None, session.session_key, name)

    red, blue = guest("red"), guest("blue")
    gid = services.create_game(red, variant="classic", seat=0).public_id
    services.join_game(gid, blue)
    for ident in (red, blue):
        services.random_setup(gid, ident, seed=1)
        services.ready(gid, ident)
    connections.close_all()
    return gid, [red, blue]


async def next_view(ws, version: int) -> dict:
    while True:
        frame = json.loads(await ws.recv())
        if frame.get("version", -1) >= version and "view" in frame:
            return frame


async def play(port: int, gid: str, players: list, moves: int) -> list[float]:
    import websockets

    url = f"ws://127.0.0.1:{port}/ws/games/{gid}/"
    origin = f"http://localhost:{port}"
    sockets = [
        await websockets.connect(
            url, additional_headers={"Origin": origin, "Cookie": f"sessionid={p.session_key}"}
        )
        for p in players
    ]
    views = [json.loads(await ws.recv()) for ws in sockets]
    version, turn, rng, times = views[0]["version"], 0, random.Random(0), []
    for _ in range(moves):
        view = views[turn]["view"]
        if view["phase"] != "playing":
            break
        frm, to = rng.choice(view["legal_moves"])
        start = time.perf_counter()
        await sockets[turn].send(json.dumps({"type": "move", "from": frm, "to": to}))
        views[1 - turn] = await next_view(sockets[1 - turn], version + 1)
        times.append((time.perf_counter() - start) * 1000)
        version = views[1 - turn]["version"]
        views[turn] = await next_view(sockets[turn], version)
        turn = 1 - turn
    for ws in sockets:
        await ws.close()
    return sorted(times)


def main() -> None:
    src, port, moves = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    gid, players = prepare(src)
    cmd = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
           "stratego_site.asgi:application"]  # fmt: skip
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(4)
        times = asyncio.run(play(port, gid, players, moves))
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
    p99 = times[max(0, int(len(times) * 0.99) - 1)]
    print(f"{src}: {len(times)} moves, opponent p50 {statistics.median(times):.1f} ms, "
          f"p99 {p99:.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
