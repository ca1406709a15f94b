"""One daphne process under the open loop: `python -m bench.profile RATE SECONDS [--spy]`.

Starts one server as the bench does, makes 50 games, drives them at RATE moves/s for SECONDS
from the client process, and prints the server's CPU milliseconds per delivered move (its
CPU time over the run, from /proc, divided by the moves that reached the opponent): a
figure a loaded machine disturbs less than latencies. With --spy, py-spy (pip install py-spy
into the venv) samples the server meanwhile; /tmp/bench-profile-<rate>.txt gets its raw
collapsed stacks and the top frames by own and by total time are printed. A tool for finding
costs, not part of `make bench`.
"""

from __future__ import annotations

import collections
import subprocess
import sys
import tempfile
from pathlib import Path

from . import fixtures, stack
from .__main__ import PORTS, SEED, run_client


def top(collapsed: Path, n: int = 40) -> str:
    own: collections.Counter[str] = collections.Counter()
    total: collections.Counter[str] = collections.Counter()
    samples = 0
    for line in collapsed.read_text().splitlines():
        stack_text, _, count = line.rpartition(" ")
        frames = stack_text.split(";")
        k = int(count)
        samples += k
        own[frames[-1]] += k
        for frame in set(frames):
            total[frame] += k
    lines = [f"{samples} samples"]
    for title, counter in (("own", own), ("total", total)):
        lines.append(f"--- by {title} time")
        for frame, k in counter.most_common(n):
            lines.append(f"{100 * k / samples:5.1f}%  {frame}")
    return "\n".join(lines)


def main() -> None:
    rate, seconds = int(sys.argv[1]), float(sys.argv[2])
    env = stack.server_env()
    stack.create_database(env)
    fixtures.setup_django(env)
    work = Path(tempfile.mkdtemp(prefix="bench-profile-"))
    server = stack.Server("bench.counted_asgi:application", stack.free_port(PORTS + 50), env,
                          work / "daphne.log").start()  # fmt: skip
    out = Path(f"/tmp/bench-profile-{rate}.txt")
    try:
        games = fixtures.ready_games(50, SEED + 10)
        spy = None
        if "--spy" in sys.argv:
            spy = subprocess.Popen([str(Path(sys.executable).with_name("py-spy")), "record",
                                    "--pid", str(server.proc.pid), "--format", "raw",
                                    "--rate", "200", "-o", str(out), "--threads"])  # fmt: skip
        base = {"servers": [server.url], "seed": SEED, "move_timeout": 3}
        plan = {**base, "scenario": "open_loop", "games": games, "rates": [rate],
                "step_seconds": seconds, "stop_when_saturated": False}  # fmt: skip
        before = server.usage()["cpu_seconds"]
        step = run_client(plan, work)["steps"][0]
        cpu = server.usage()["cpu_seconds"] - before
        moves = step["count"]  # (delivered to the opponent)
        print(f"{step}\nserver CPU {cpu:.2f} s for {moves:.0f} moves: "
              f"{1000 * cpu / max(moves, 1):.2f} ms per move; load {stack.load_average()}")
        if spy is not None:
            spy.send_signal(2)
            spy.wait(30)
    finally:
        server.stop()
    if "--spy" in sys.argv:
        print(top(out))


if __name__ == "__main__":
    main()
