"""Daphne under the open loop: `python -m bench.profile RATES SECONDS [--spy] [--processes N]`.

Starts one server as the bench does (N with --processes, Red's and Blue's sockets on different
ones), makes 50 games, drives them at each of RATES moves/s in turn (e.g. 100,300: the servers
warm up as in make bench) for SECONDS each from the client process, and prints each step and
the servers' CPU milliseconds per delivered move (their CPU time over the run, from /proc,
divided by the moves that reached the opponent): a figure a loaded machine disturbs less
than latencies. Then the same per move for every program of the machine (the client's
includes its start). On these 2 cores, R moves/s fit if the sum stays under 2000 / R ms.
With --spy, py-spy (pip install py-spy into the venv) samples the first server
meanwhile; /tmp/bench-profile-<rate>.txt gets its raw collapsed stacks and the top frames by
own and by total time are printed. A tool for finding costs, not part of `make bench`.
"""

from __future__ import annotations

import collections
import os
import resource
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


APP = "bench.counted_asgi:application"


def cpu_by_program() -> collections.Counter[str]:
    """CPU seconds of every process on the machine so far, by program: the servers (daphne),
    the bench's client, PostgreSQL, Redis and the rest."""
    tick = os.sysconf("SC_CLK_TCK")
    found: collections.Counter[str] = collections.Counter()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:  # (gone meanwhile)
            continue
        comm, fields = stat[stat.find("(") + 1 : stat.rfind(")")], stat[stat.rfind(")") + 2 :]
        ticks = sum(int(v) for v in fields.split()[11:13])  # utime, stime
        found[program(comm, cmd)] += ticks / tick
    return found


def program(comm: str, cmd: str) -> str:
    for name, mark in (("daphne", "daphne"), ("client", "bench.client"), ("redis", "redis")):
        if mark in cmd or mark in comm:
            return name
    return "postgres" if comm.startswith("postgres") else "other"


def reaped_cpu() -> float:
    """CPU seconds of this process's children that ended (the client, once it has)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def split(before: collections.Counter[str], after: collections.Counter[str], moves: int) -> str:
    """CPU milliseconds per delivered move of each program over the step (an ended client
    is in `reaped`)."""
    used = {name: after[name] - before.get(name, 0.0) for name in after}
    parts = [f"{name} {1000 * s / max(moves, 1):.2f}" for name, s in sorted(used.items())
             if name != "other"]  # fmt: skip
    return "CPU ms per move: " + ", ".join(parts)


def main() -> None:
    rates, seconds = [int(r) for r in sys.argv[1].split(",")], float(sys.argv[2])
    rate = rates[-1]  # (the ones before it warm the servers up, as make bench's lower rates do)
    processes = int(sys.argv[sys.argv.index("--processes") + 1]) if "--processes" in sys.argv else 1
    env = stack.server_env()
    stack.create_database(env)
    fixtures.setup_django(env)
    work = Path(tempfile.mkdtemp(prefix="bench-profile-"))
    servers = [
        stack.Server(APP, stack.free_port(PORTS + 50 + i), env, work / f"daphne-{i}.log").start()
        for i in range(processes)
    ]
    out = Path(f"/tmp/bench-profile-{rate}.txt")
    try:
        games = fixtures.ready_games(50, SEED + 10)
        spy = None
        if "--spy" in sys.argv:
            # (--gil: only the thread holding the GIL, so a sample is Python's CPU, not a wait)
            spy = subprocess.Popen([str(Path(sys.executable).with_name("py-spy")), "record",
                                    "--pid", str(servers[0].proc.pid), "--format", "raw",
                                    "--rate", "200", "-o", str(out), "--threads",
                                    "--gil"])  # fmt: skip
        base = {"servers": [s.url for s in servers], "seed": SEED, "move_timeout": 3}
        plan = {**base, "scenario": "open_loop", "games": games, "rates": rates,
                "step_seconds": seconds, "stop_when_saturated": False}  # fmt: skip
        before = sum(s.usage()["cpu_seconds"] for s in servers)
        machine, reaped = cpu_by_program(), reaped_cpu()
        steps = run_client(plan, work)["steps"]
        after = cpu_by_program()
        after["client"] += reaped_cpu() - reaped
        moves = sum(step["count"] for step in steps)  # (delivered to the opponent)
        split_line = split(machine, after, moves)
        cpu = sum(s.usage()["cpu_seconds"] for s in servers) - before
        print(
            "\n".join(map(str, steps)) + f"\nserver CPU {cpu:.2f} s for {moves:.0f} moves: "
            f"{1000 * cpu / max(moves, 1):.2f} ms per move; load {stack.load_average()}"
        )
        print(split_line)
        if spy is not None:
            spy.send_signal(2)
            spy.wait(30)
    finally:
        for server in servers:
            server.stop()
    if "--spy" in sys.argv:
        print(top(out))


if __name__ == "__main__":
    main()
