"""Real daphne processes on the test database and Redis, for the tests that need the real
websocket server (close codes, size limits, several processes, crashes)."""

from __future__ import annotations

import os
import signal
import socket as pysocket
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with pysocket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, proc: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"daphne exited with {proc.returncode}")
        try:
            with pysocket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"daphne did not listen on {port}")


def db_url() -> str:
    s = connection.settings_dict
    return f"postgres://{s['USER']}@{s['HOST'] or 'localhost'}:{s['PORT'] or 5432}/{s['NAME']}"


class Daphne:
    """One daphne process, started as production starts it (settings.DAPHNE_ARGS)."""

    def __init__(self, log: Path, env: dict | None = None) -> None:
        self.log = log
        self.port = free_port()
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "stratego_site.settings",
            "DATABASE_URL": db_url(),
            "REDIS_URL": os.environ["REDIS_URL"],
            "CHANNEL_PREFIX": settings.CHANNEL_PREFIX,
            "DEBUG": "true",
            **(env or {}),
        }
        self.proc: subprocess.Popen | None = None

    def start(self) -> Daphne:
        cmd = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
               *settings.DAPHNE_ARGS, "stratego_site.asgi:application"]  # fmt: skip
        with self.log.open("a") as out:
            self.proc = subprocess.Popen(
                cmd, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT
            )
        wait_for_port(self.port, self.proc)
        return self

    def stop(self, crash: bool = False) -> None:
        """Terminate (or, with crash, SIGKILL: no disconnect handler runs) and wait."""
        if self.proc is None:
            return
        if crash:
            self.proc.send_signal(signal.SIGKILL)
        else:
            self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"

    @property
    def origin(self) -> dict:
        return {"Origin": f"http://127.0.0.1:{self.port}"}  # exactly the server it talks to

    def log_text(self) -> str:
        return self.log.read_text()


def assert_clean_log(text: str) -> None:
    assert "Traceback" not in text and " ERROR " not in text, text
