"""The whole-site soak: `python -m bench.soak [--quick]` (`make soak [QUICK=1]`).

It runs the production topology on this machine: two daphne processes (DEBUG off, PostgreSQL
through each process's bounded pool, Redis) behind the real nginx, which the daphnes trust
for the client's address, and the TCP door as a process of its own. Two bot accounts play
each other through the Bot API (`python -m games.client`) and a TCP player waits at the door
for a browser guest. A separate process (bench/soak/traffic.py) sends the visitors' mix from
many loopback addresses. Meanwhile the runner samples, every two seconds, each process's
resident memory and open file descriptors and the PostgreSQL connections each holds.

Printed and written: bench/results/soak-<date>.json and .png, and docs/performance.md
between the soak's markers."""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import psycopg

from .. import stack
from ..nginx import Nginx
from . import report
from .traffic import merge

POOL_SIZE = int(os.environ.get("DATABASE_POOL_SIZE", "10"))  # each server process's
FULL = {"seconds": 600, "games": 200, "computer_games": 10, "spectators": 500,
        "lobby_sockets": 100, "page_views_per_second": 20, "signups_per_minute": 12}  # fmt: skip
QUICK = {**FULL, "seconds": 120}
CLIENT_PARTS = ("games", "pages")  # two client processes (bench/soak/traffic.py)


SECRET_KEY = secrets.token_urlsafe(48)  # one for every process: they read each other's sessions


def soak_env(name: str) -> dict[str, str]:
    env = {**stack.server_env(), "SECRET_KEY": SECRET_KEY}
    for limit in ("WS_SOCKETS_PER_ADDRESS", "WS_CONNECTS_PER_SECOND", "WS_CONNECT_BURST"):
        env.pop(limit)  # the public server's limits: every visitor has an address of its own
    return {**env, "TRUSTED_PROXIES": "127.0.0.1", "PGAPPNAME": name,
            # each full collection's pause, and the event loop's lag every 30 s
            "LOG_LEVELS": "stratego_site.gctune=DEBUG,stratego_site.looplag=DEBUG",
            "DATABASE_POOL_SIZE": str(POOL_SIZE), "SECURE_COOKIES": "false"}  # fmt: skip


class Sampler(threading.Thread):
    """Each process's RSS (MB) and open descriptors, and PostgreSQL connections per process
    (by application_name), every `every` seconds."""

    def __init__(self, processes: dict[str, int], url: str, every: float = 2.0) -> None:
        super().__init__(daemon=True)
        self.processes, self.url, self.every = processes, url, every
        self.samples: list[dict] = []
        self.started = time.monotonic()
        self.halt = threading.Event()

    def run(self) -> None:
        with psycopg.connect(self.url, autocommit=True) as conn:
            while not self.halt.is_set():
                sample: dict = {"t": round(time.monotonic() - self.started, 1)}
                for name, pid in list(self.processes.items()):
                    sample[name] = process_sample(pid)
                rows = conn.execute(
                    "SELECT application_name, count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid() GROUP BY 1"
                ).fetchall()
                sample["pg"] = dict(rows)
                self.samples.append(sample)
                self.halt.wait(self.every)


def process_sample(pid: int) -> dict:
    try:
        rss_kb = next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").open()
                      if line.startswith("VmRSS:"))  # fmt: skip
        fds = len(os.listdir(f"/proc/{pid}/fd"))
        cpu = stack.process_usage(pid)["cpu_seconds"]
    except (OSError, StopIteration):
        return {"rss_mb": None, "fds": None, "cpu_s": None}
    return {"rss_mb": round(rss_kb / 1024, 1), "fds": fds, "cpu_s": cpu}


def make_bots(env: dict[str, str]) -> list[str]:
    tokens = []
    for name in ("soakbot1", "soakbot2"):
        done = subprocess.run([sys.executable, "manage.py", "bot_token", name], cwd=stack.ROOT,
                              env=env, check=True, capture_output=True, text=True)  # fmt: skip
        tokens.append(done.stdout.strip().splitlines()[-1])
    return tokens


def start_bots(tokens: list[str], port: int, env: dict[str, str], work: Path) -> list:
    procs = []
    for i, token in enumerate(tokens):
        # the first opens games, the second joins them
        role = ["--create"] if i == 0 else []
        args = [sys.executable, "-m", "clients.bot", "--server", f"http://127.0.0.1:{port}",
                "--token", token, "--player", "bench.soak.paced_player:Paced", "--forever",
                "--variant", "classic", *role]  # fmt: skip
        log = (work / f"bot-{i}.log").open("w")
        procs.append(subprocess.Popen(args, cwd=stack.ROOT, env=env, stdout=log,
                                      stderr=subprocess.STDOUT))  # fmt: skip
    return procs


def tracebacks(paths: list[Path]) -> dict[str, int]:
    return {p.name: p.read_text(errors="replace").count("Traceback") for p in paths if p.exists()}


COLLECTION = re.compile(
    r"(full|whole) collection: \d+ objects freed in ([\d.]+) ms \(([\d.]+) ms of CPU\)"
)


def collection_pauses(paths: list[Path]) -> dict[str, list[list[float]]]:
    """The servers' full collections (stratego_site/gctune.py): each one's milliseconds of
    wall time and of CPU, by kind ("full": what came since the last freeze; "whole":
    everything)."""
    pauses: dict[str, list[list[float]]] = {"full": [], "whole": []}
    for path in paths:
        if path.exists() and path.name.startswith("daphne"):
            for kind, wall, cpu in COLLECTION.findall(path.read_text(errors="replace")):
                pauses[kind].append([float(wall), float(cpu)])
    return pauses


LOOP_LAG = re.compile(r"event loop lag: p50 ([\d.]+) / p99 ([\d.]+) / most ([\d.]+) ms")


def loop_lags(paths: list[Path]) -> dict[str, list[list[float]]]:
    """Each server's event loop lag (stratego_site/looplag.py): p50, p99 and most, in ms, of
    each 30 s."""
    return {path.stem: [[float(x) for x in row] for row in LOOP_LAG.findall(path.read_text())]
            for path in paths if path.exists() and path.name.startswith("daphne")}  # fmt: skip


SITE_WITH_STAGES = "bench.stages:soak_application"


def server_stages(server: stack.Server) -> dict:
    """The server's stage timers (bench/stages.py), read from it directly (not through nginx)."""
    from bench.stages import summary

    address = server.url.replace("ws://", "http://") + "/__bench__/stages"
    with urllib.request.urlopen(address, timeout=30) as response:
        return summary(json.loads(response.read()))


def server_outliers(server: stack.Server) -> list:
    """(time, stage, ms) of each stage that took 200 ms or more in the server."""
    address = server.url.replace("ws://", "http://") + "/__bench__/outliers"
    with urllib.request.urlopen(address, timeout=30) as response:
        return json.loads(response.read())


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.soak")
    parser.add_argument("--quick", action="store_true", help="two minutes instead of ten")
    parser.add_argument(
        "--stages",
        action="store_true",
        help="time each stage of a move in the servers (bench/stages.py)",
    )
    parser.add_argument(
        "--page-servers",
        type=int,
        default=2,
        help="daphne processes for the pages alone (0: the live ones serve them)",
    )
    parser.add_argument(
        "--page-nice",
        type=int,
        default=10,
        help="the page processes' CPU priority below the live ones (nice)",
    )
    for key in FULL:
        parser.add_argument(f"--{key.replace('_', '-')}", type=float, dest=key)
    args = parser.parse_args()
    mix = {**(QUICK if args.quick else FULL)}
    mix.update({k: int(v) if float(v).is_integer() else v
                for k, v in vars(args).items() if k in FULL and v is not None})  # fmt: skip
    work = Path(tempfile.mkdtemp(prefix="soak-"))
    env = soak_env("soak-migrate")
    print(f"soak: {mix}; logs in {work}", file=sys.stderr)
    stack.create_database(env)
    tokens = make_bots(env)
    servers, pages, door, proxy, bots, sampler = [], [], None, None, [], None
    logs = []
    load_before = stack.load_average()
    try:
        for i in range(2):
            log = work / f"daphne-{i}.log"
            logs.append(log)
            port = stack.free_port(8400 + 10 * i)
            site = SITE_WITH_STAGES if args.stages else "stratego_site.asgi:application"
            servers.append(stack.Server(site, port, soak_env(f"soak-web-{i}"), log).start())
        pages = []
        for i in range(args.page_servers):
            log = work / f"daphne-pages-{i}.log"
            logs.append(log)
            port = stack.free_port(8440 + 10 * i)
            pages.append(stack.Server(site, port, soak_env(f"soak-pages-{i}"), log,
                                      nice=args.page_nice).start())  # fmt: skip
        door_port = stack.free_port(8480)
        logs.append(work / "door.log")
        door = subprocess.Popen([sys.executable, "manage.py", "serve_legacy", "--port",
                                 str(door_port)], cwd=stack.ROOT, env=soak_env("soak-door"),
                                stdout=logs[-1].open("w"), stderr=subprocess.STDOUT)  # fmt: skip
        stack.wait_for_port(door_port, door)
        proxy = Nginx(work / "nginx", [s.port for s in servers], connections=16384,
                      page_ports=[s.port for s in pages]).start()  # fmt: skip
        processes = {f"web-{i}": s.proc.pid for i, s in enumerate(servers)}
        processes |= {f"pages-{i}": s.proc.pid for i, s in enumerate(pages)}
        processes["door"] = door.pid
        sampler = Sampler(processes, stack.bench_database_url())
        sampler.start()
        bots = start_bots(tokens, proxy.port, env, work)
        plan = {**mix, "port": proxy.port, "door_port": door_port, "seed": 2026,
                "think": [0.5, 2.5], "plies": 60, "levels": ["random", "medium"],
                "ramp_seconds": min(60, mix["seconds"] / 4)}  # fmt: skip
        (work / "plan.json").write_text(json.dumps(plan))
        started = time.monotonic()
        clients = {part: subprocess.Popen([sys.executable, "-m", "bench.soak.traffic",
                                           str(work / "plan.json"), str(work / f"{part}.json"),
                                           part], cwd=stack.ROOT)
                   for part in CLIENT_PARTS}  # fmt: skip
        for part, client in clients.items():  # their CPU is on the same two cores
            sampler.processes[f"client-{part}"] = client.pid
        if any(client.wait() != 0 for client in clients.values()):
            raise RuntimeError("a traffic client failed")
        elapsed = time.monotonic() - started
        stages = {f"web-{i}": server_stages(s) for i, s in enumerate(servers) if args.stages}
        stages |= {f"pages-{i}": server_stages(s) for i, s in enumerate(pages) if args.stages}
        outliers = {f"web-{i}": server_outliers(s) for i, s in enumerate(servers) if args.stages}
    finally:
        if sampler is not None:
            sampler.halt.set()
            sampler.join(10)
        for bot in bots:
            bot.terminate()
            bot.wait(10)
        if proxy is not None:
            proxy.stop()
        if door is not None:
            door.terminate()
            door.wait(10)
        for server in servers + pages:
            server.stop()
    traffic = merge({part: json.loads((work / f"{part}.json").read_text())
                     for part in CLIENT_PARTS}, warm_up=mix["seconds"] / 4)  # fmt: skip
    results = {
        "mix": mix,
        "seconds": round(elapsed, 1),
        "pool_size": POOL_SIZE,
        "page_servers": args.page_servers,
        "page_nice": args.page_nice,
        "traffic": traffic,
        "samples": sampler.samples,
        "tracebacks": tracebacks(logs),
        "collections": collection_pauses(logs),
        "server_loop_lag": loop_lags(logs),
        "stages": stages,
        "stage_outliers": outliers,
        "nginx_5xx": report.nginx_5xx(work / "nginx" / "access.log"),
        "bot_games": report.bot_games(work),
        "load_average": {"before": load_before, "after": stack.load_average()},
        "quick": args.quick,
        "command": " ".join(["python -m bench.soak", *sys.argv[1:]]),
    }
    print(report.write(results))


if __name__ == "__main__":
    main()
