"""The stack under test: a database of the bench's own, daphne processes started as
production starts them (DEBUG off, PostgreSQL + Redis), and their CPU and memory."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

ROOT = Path(__file__).resolve().parents[1]
BENCH_DB = os.environ.get("BENCH_DATABASE", "stratego_bench")
# the same flags as settings.DAPHNE_ARGS (the Dockerfile's), without importing the settings
DAPHNE_ARGS = ["--websocket-max-message-size=65536", "--websocket-max-frame-size=65536"]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def bench_database_url() -> str:
    """DATABASE_URL (default: local PostgreSQL) with the bench's own database name."""
    base = os.environ.get("DATABASE_URL", "postgres://postgres@localhost:5432/stratego")
    parts = urlsplit(base)
    return urlunsplit(parts._replace(path=f"/{BENCH_DB}"))


def server_env() -> dict[str, str]:
    """The environment of a production process, on the bench's database and channel prefix."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "stratego_site.settings",
        "DATABASE_URL": bench_database_url(),
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://localhost:6379/0"),
        "CHANNEL_PREFIX": f"bench{os.getpid()}",
        "DEBUG": "false",
        "SECRET_KEY": os.environ.get("BENCH_SECRET_KEY", secrets.token_urlsafe(48)),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
        # every bench socket comes from one address, 127.0.0.1: the per-address limits of a
        # public server (games/transport/limits.py) would refuse the crowd the bench is there to
        # measure
        "WS_SOCKETS_PER_ADDRESS": "5000",
        "WS_CONNECTS_PER_SECOND": "1000",
        "WS_CONNECT_BURST": "5000",
    }


def create_database(env: dict[str, str]) -> None:
    """Create the bench's database afresh, then migrate it (as a deploy would). Afresh: the
    games an earlier run left in play were swept by the new servers' heartbeats during the
    measured steps (the first beat after a few runs found 923 of them: 0.6 s of CPU and 421
    statements, a quarter-second stall of the open loop at 300 moves/s), and every run
    measures the same tables."""
    url = urlsplit(env["DATABASE_URL"])
    admin = urlunsplit(url._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{BENCH_DB}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{BENCH_DB}"')
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                   cwd=ROOT, env=env, check=True)  # fmt: skip


def free_port(start: int) -> int:
    for port in range(start, start + 100):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port from {start}")


def wait_for_port(port: int, proc: subprocess.Popen, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the process for port {port} exited")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"nothing listened on {port}")


@dataclass
class Server:
    """One daphne process serving `app` on 127.0.0.1:port."""

    app: str
    port: int
    env: dict[str, str]
    log: Path
    nice: int = 0  # the process's CPU priority (the soak's page processes run below the live)
    proc: subprocess.Popen | None = field(default=None, repr=False)

    def start(self) -> Server:
        cmd = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
               *DAPHNE_ARGS, self.app]  # fmt: skip
        if self.nice:
            cmd = ["nice", "-n", str(self.nice), *cmd]
        with self.log.open("a") as out:
            self.proc = subprocess.Popen(cmd, cwd=ROOT, env=self.env, stdout=out,
                                         stderr=subprocess.STDOUT)  # fmt: skip
        try:
            wait_for_port(self.port, self.proc)
        except RuntimeError as exc:
            raise RuntimeError(f"daphne exited: see {self.log}") from exc
        return self

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def usage(self) -> dict:
        return process_usage(self.proc.pid) if self.proc else {}


def process_usage(pid: int) -> dict:
    """CPU seconds (user + system) and peak resident memory (VmHWM) of a live process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    peak_kb = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            peak_kb = int(line.split()[1])
    return {"cpu_seconds": round(cpu, 2), "peak_rss_mb": round(peak_kb / 1024, 1)}


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]
