"""The runner: `python -m bench [--quick] [--layer site|library|pubsub]` (`make bench [QUICK=1]
[LAYER=library]`). `--layer` picks the servers' Redis channel layer (CHANNEL_LAYER_BACKEND,
stratego_site/settings.py): this site's own (the default) or channels-redis's as it ships, to
compare them; a run on another layer than the site's has its own section in
docs/performance.md."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

from . import fixtures, idle, report, stack
from .plan import FULL, QUICK, Plan
from .stats import knee

SEED = 2026
PORTS = 8200  # the bench's servers listen from here


def run_client(plan: dict, work: Path) -> dict:
    """One scenario in a separate client process; its result."""
    plan_file, out_file = work / "plan.json", work / "out.json"
    plan_file.write_text(json.dumps(plan))
    out_file.unlink(missing_ok=True)
    subprocess.run([sys.executable, "-m", "bench.client", str(plan_file), str(out_file)],
                   cwd=stack.ROOT, check=True)  # fmt: skip
    sys.stderr.write("\n")
    return json.loads(out_file.read_text())


STARTED = time.monotonic()


def stage(text: str) -> None:
    """A progress line with the time since the run began."""
    print(f"[{time.monotonic() - STARTED:6.1f} s] {text}", file=sys.stderr)


def measure_config(n: int, plan: Plan, env: dict, work: Path) -> dict:
    """Everything measured on `n` daphne processes of the site."""
    servers = []
    for i in range(n):
        port = stack.free_port(PORTS + 10 + 10 * i)
        log = work / f"daphne-{n}-{i}.log"
        servers.append(stack.Server("bench.counted_asgi:application", port, env, log).start())
    urls = [s.url for s in servers]
    out: dict = {"processes": n}
    try:
        base = {"servers": urls, "seed": SEED, "move_timeout": plan.move_timeout}
        stage(f"{n} process(es): one game, {plan.one_game_moves} moves")
        game = fixtures.ready_games(1, SEED + n)
        out["one_game"] = run_client({**base, "scenario": "one_game", "games": game,
                                      "moves": plan.one_game_moves}, work)  # fmt: skip
        out["statements_per_move"] = out["one_game"]["statements_per_move"]
        stage(f"{n} process(es): open loop over {plan.open_loop_games} games")
        out["open_loop"] = open_loop(base, plan, n, work)
        out["knee"] = knee(out["open_loop"])
        if n in plan.fan_out_processes:
            out["fan_out"] = fan_out(base, plan, servers, n, work)
        out["usage"] = [s.usage() for s in servers]
    finally:
        for s in servers:
            s.stop()
    out["tracebacks"] = sum(s.log.read_text().count("Traceback") for s in servers)
    return out


OPEN_LOOP_GAMES: list[dict] = []  # made once, played on by every configuration


def open_loop(base: dict, plan: Plan, n: int, work: Path) -> list[dict]:
    if not OPEN_LOOP_GAMES:
        OPEN_LOOP_GAMES.extend(fixtures.ready_games(plan.open_loop_games, SEED + 10))
    games = OPEN_LOOP_GAMES
    return run_client({**base, "scenario": "open_loop", "games": games, "rates": plan.rates,
                       "step_seconds": plan.step_seconds,
                       "stop_when_saturated": plan.stop_when_saturated}, work)["steps"]  # fmt: skip


def fan_out(base: dict, plan: Plan, servers: list, n: int, work: Path) -> list[dict]:
    steps = []
    for i, count in enumerate(plan.spectators):
        stage(f"{n} process(es): fan-out, {count} spectators")
        game = fixtures.ready_games(1, SEED + 100 * n + i)
        step = run_client({**base, "scenario": "fan_out", "games": game, "spectators": [count],
                           "fan_moves": plan.fan_moves}, work)["steps"][0]  # fmt: skip
        steps.append(step)
    return steps


def measure_echo(plan: Plan, env: dict, work: Path) -> dict:
    port = stack.free_port(PORTS + 1)
    server = stack.Server("bench.echo:application", port, env, work / "echo.log").start()
    try:
        stage("echo baseline")
        result = run_client({"scenario": "echo", "echo": server.url,
                             "echo_frames": plan.echo_frames}, work)  # fmt: skip
        result["usage"] = server.usage()
    finally:
        server.stop()
    return result


def git_commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=stack.ROOT,
                          capture_output=True, text=True)  # fmt: skip
    return done.stdout.strip()


def run_idle(count: int, seconds: float) -> None:
    """bench/idle.py: N sockets held idle on one process; printed and written to
    bench/results/<date>-idle.json."""
    env = stack.server_env()
    stage(f"bench database {stack.BENCH_DB}: migrating")
    stack.create_database(env)
    fixtures.setup_django(env)
    work = Path(tempfile.mkdtemp(prefix="bench-idle-"))
    stage(f"idle: {count} sockets for {seconds:g} s; the server's log in {work}")
    load_before = stack.load_average()
    result = idle.measure_idle(count, seconds, env, work, stack.free_port(PORTS + 5))
    result.update(date=time.strftime("%Y-%m-%d %H:%M:%S"), commit=git_commit(),
                  load_before=load_before, load_after=stack.load_average())  # fmt: skip
    out = report.RESULTS / f"{time.strftime('%Y-%m-%dT%H%M')}-idle.json"
    out.write_text(json.dumps(result, indent=1))
    print(idle.report(result))
    print(f"(written to {out.relative_to(stack.ROOT)})")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="the short run (< 3 minutes)")
    parser.add_argument("--processes", default="1,2", help="configurations, e.g. 1,2")
    parser.add_argument("--layer", choices=report.LAYERS,
                        default=os.environ.get("CHANNEL_LAYER_BACKEND") or report.SITE_LAYER,
                        help="the servers' channel layer (default: the site's own)")  # fmt: skip
    parser.add_argument("--report", metavar="JSON", help="only rewrite the doc from a result")
    parser.add_argument("--idle", type=int, metavar="N", help="only the idle scenario: N sockets")
    parser.add_argument("--idle-seconds", type=float, default=600, help="its hold (default 600)")
    args = parser.parse_args()
    if args.idle:
        run_idle(args.idle, args.idle_seconds)
        return
    if args.report:
        print(report.rewrite_doc(json.loads(Path(args.report).read_text())))
        return
    plan = QUICK if args.quick else FULL
    started = time.time()
    env = {**stack.server_env(), "CHANNEL_LAYER_BACKEND": args.layer}
    results = {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "quick": args.quick,
               "channel_layer": args.layer, "commit": git_commit(), "plan": asdict(plan),
               "load_before": stack.load_average(), "configs": {}}  # fmt: skip
    stage(f"channel layer: {args.layer}; bench database {stack.BENCH_DB}: migrating")
    stack.create_database(env)
    fixtures.setup_django(env)
    work = Path(tempfile.mkdtemp(prefix="bench-"))  # kept: the servers' logs
    stage(f"servers' logs in {work}")
    results["echo"] = measure_echo(plan, env, work)
    for n in (int(x) for x in args.processes.split(",")):
        results["configs"][str(n)] = measure_config(n, plan, env, work)
    results["load_after"] = stack.load_average()
    results["seconds"] = round(time.time() - started, 1)
    print(report.write(results))


if __name__ == "__main__":
    main()
