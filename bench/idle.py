"""The idle scenario (the target "1,000 idle sockets held 10 minutes: memory flat, no
traceback"): `python -m bench --idle 1000 --idle-seconds 600`.

One daphne process of the site as production runs it (PostgreSQL + Redis). A client process
opens N sockets on N/20 games (each game's two players, the rest its spectators), holds them
without sending anything for the duration, then plays one move in every game (all at once)
and counts the sockets that got it within SETTLE_SECONDS (liveness, not latency).
Meanwhile the runner samples the daphne process's resident memory (VmRSS in /proc) every
SAMPLE_SECONDS; at the end it counts the tracebacks in its log.

`python -m bench.idle plan.json out.json` is the client (the runner starts it).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

from . import fixtures, stack
from .client import Table, progress

SOCKETS_PER_GAME = 20
SAMPLE_SECONDS = 10.0  # (or a tenth of a shorter hold)
SETTLE_SECONDS = 120.0  # how long the final moves may take to reach every socket
SEED = 2026


def rss_mb(pid: int) -> float | None:
    """The process's resident memory now (VmRSS), in MB; None once it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return None


def measure_idle(count: int, seconds: float, env: dict, work: Path, port: int) -> dict:
    """The idle scenario on one daphne process: the client's result, the memory samples and
    the tracebacks in the server's log."""
    games = fixtures.ready_games(max(1, count // SOCKETS_PER_GAME), SEED)
    log = work / "daphne-idle.log"
    server = stack.Server("stratego_site.asgi:application", port, env, log).start()
    plan = {"server": server.url, "games": games, "sockets": count, "seconds": seconds}
    plan_file, out_file = work / "idle-plan.json", work / "idle-out.json"
    plan_file.write_text(json.dumps(plan))
    samples: list[tuple[float, float]] = []
    try:
        client = subprocess.Popen([sys.executable, "-m", "bench.idle", str(plan_file),
                                   str(out_file)], cwd=stack.ROOT)  # fmt: skip
        while client.poll() is None:
            value = rss_mb(server.proc.pid)
            if value is not None:
                samples.append((time.time(), value))
            time.sleep(min(SAMPLE_SECONDS, seconds / 10))
        if client.returncode != 0:
            raise RuntimeError(f"the idle client failed ({client.returncode})")
        usage = server.usage()
    finally:
        server.stop()
    sys.stderr.write("\n")
    result = json.loads(out_file.read_text())
    return summarize(result, samples, usage, log.read_text())


def summarize(result: dict, samples: list[tuple[float, float]], usage: dict, log: str) -> dict:
    held = [mb for at, mb in samples if result["opened_at"] <= at <= result["held_until"]]
    return {
        **result,
        "rss_mb_at_start": held[0] if held else None,
        "rss_mb_at_end": held[-1] if held else None,
        "rss_mb_max": max(held, default=None),
        "rss_samples": [[round(at - result["opened_at"], 1), mb] for at, mb in samples],
        "server": usage,
        "tracebacks": log.count("Traceback"),
        "log_errors": log.count(" ERROR "),
    }


def report(result: dict) -> str:
    growth = None
    if result["rss_mb_at_start"] is not None:
        growth = round(result["rss_mb_at_end"] - result["rss_mb_at_start"], 1)
    return "\n".join(
        [
            f"idle: {result['opened']} of {result['sockets']} sockets opened on "
            f"{result['games']} games, held {result['held_seconds']} s",
            f"  closed while idle: {result['closed_while_idle']}",
            f"  daphne VmRSS: {result['rss_mb_at_start']} MB when all were open, "
            f"{result['rss_mb_at_end']} MB at the end of the hold (growth {growth} MB, "
            f"max {result['rss_mb_max']} MB)",
            f"  then one move in each of {result['moves_played']} games: "
            f"{result['got_the_move']} of {result['open_at_end']} open sockets got it, "
            f"all within {result['delivered_in_seconds']} s",
            f"  tracebacks in the server log: {result['tracebacks']}",
        ]
    )


# --- the client process -----------------------------------------------------------------


async def hold(plan: dict) -> dict:
    games, server = plan["games"], plan["server"]
    spectators = max(0, plan["sockets"] // len(games) - 2)
    tables: list[Table] = []
    for i, game in enumerate(games):
        tables.append(await Table.open(game, [server], spectators, SEED + i))
        progress(f"idle: {len(tables)}/{len(games)} games' sockets open")
    socks = [s for t in tables for s in (t.red, t.blue, *t.observers)]
    opened_at = time.time()
    closed_before = sum(s.closed is not None for s in socks)
    while time.time() - opened_at < plan["seconds"]:
        await asyncio.sleep(1.0)
        left = plan["seconds"] - (time.time() - opened_at)
        progress(f"idle: {len(socks)} sockets held, {max(0, left):.0f} s to go")
    held_until = time.time()
    closed_while_idle = sum(s.closed is not None for s in socks) - closed_before
    moves_at = time.monotonic()
    moves = await asyncio.gather(*(t.move(watch_observers=True) for t in tables))
    targets = [
        (sock, m["base"] + 1)
        for t, m in zip(tables, moves, strict=True)
        if m and not m["error"]
        for sock in (t.red, t.blue, *t.observers)
    ]
    await settled(targets, SETTLE_SECONDS)  # late deliveries count: liveness, not latency
    got = sum(sock.version >= version for sock, version in targets)
    delivered_in = round(time.monotonic() - moves_at, 1)
    open_at_end = sum(s.closed is None for s in socks)
    await asyncio.gather(*(t.close() for t in tables), return_exceptions=True)
    return {
        "sockets": plan["sockets"],
        "games": len(games),
        "opened": len(socks) - closed_before,
        "held_seconds": round(held_until - opened_at),
        "opened_at": opened_at,
        "held_until": held_until,
        "closed_while_idle": closed_while_idle,
        "open_at_end": open_at_end,
        "moves_played": sum(1 for m in moves if m and not m["error"]),
        "got_the_move": got,
        "delivered_in_seconds": delivered_in,
    }


async def settled(targets: list, timeout: float) -> None:
    """Until every open socket has its version (at most `timeout` seconds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any(
        sock.version < version and sock.closed is None for sock, version in targets
    ):
        await asyncio.sleep(0.1)


def main() -> None:
    plan = json.loads(Path(sys.argv[1]).read_text())
    result = asyncio.run(hold(plan))
    Path(sys.argv[2]).write_text(json.dumps(result))


if __name__ == "__main__":
    main()
