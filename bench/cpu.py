"""The CPU of a move's service call, in process: `python -m bench.cpu [MOVES] [--profile]`.

Plays MOVES random legal moves (default 200) over 10 fresh games of the bench's database
through `services.move`, as a socket's action runs it, the sends after the commit left out
(off the loop they would start an event loop and a Redis pool per call), and prints the CPU and wall
milliseconds per move (process time, so a loaded machine disturbs it less than wall time).
With --profile, the top of cProfile's cumulative list. A tool, not part of `make bench`.
"""

from __future__ import annotations

import cProfile
import pstats
import random
import statistics
import sys
import time

from . import fixtures, stack


def main() -> None:
    moves = int(next((a for a in sys.argv[1:] if a.isdigit()), "200"))
    env = stack.server_env()
    stack.create_database(env)
    fixtures.setup_django(env)
    from games import engine, services
    from games.transport import broadcast

    broadcast.send = lambda sends, key=None, what="": None  # (the layer is not measured here)
    from games.domain.identity import Identity
    from games.domain.models import Game

    rng = random.Random(7)
    games = fixtures.ready_games(10, 99)
    players = {g["id"]: [Identity(None, g[c], c) for c in ("red", "blue")] for g in games}
    profile = cProfile.Profile(time.process_time) if "--profile" in sys.argv else None  # CPU
    cpu, wall = [], []
    for i in range(moves):
        gid = games[i % len(games)]["id"]
        eg = engine.Game.from_dict(Game.objects.get(public_id=gid).state)
        if eg.outcome is not None:
            continue
        move = rng.choice(eg.legal_moves())
        c0, w0 = time.process_time(), time.perf_counter()
        if profile:
            profile.enable()
        services.move(gid, players[gid][eg.turn], move.src, move.dst)
        if profile:
            profile.disable()
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
    print(f"{len(cpu)} moves: CPU per move median {statistics.median(cpu):.2f} ms, "
          f"mean {statistics.mean(cpu):.2f} ms; wall median {statistics.median(wall):.2f} ms; "
          f"load {stack.load_average()}")  # fmt: skip
    if profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(45)


if __name__ == "__main__":
    main()
