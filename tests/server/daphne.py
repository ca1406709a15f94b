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


# How long a daphne that has stopped listening may take to exit before it is killed. A clean
# exit takes well under a second from there; see `terminate` for the exit that never ends.
EXIT_GRACE = 2.5
STOP_TIMEOUT = 10.0


def is_listening(port: int) -> bool:
    """Whether some socket listens on `port` (binding it with SO_REUSEADDR fails only then);
    no connection is made, so the server sees nothing."""
    with pysocket.socket() as probe:
        probe.setsockopt(pysocket.SOL_SOCKET, pysocket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def terminate(proc: subprocess.Popen, port: int) -> bool:
    """SIGTERM, then wait for the exit; True if the process had to be killed after serving.

    The kill is a safety net. daphne's exit used to hang: on SIGTERM it cancels its
    applications but waits only for the first to end, then stops the event loop; a consumer
    still in its disconnect had a worker thread in `presence.leave`, whose broadcast
    (`async_to_sync`, back onto the stopped loop) never ran, and the interpreter's exit joins
    that thread. stratego_site/shutdown.py fixes it (tests/server/test_shutdown.py). Once the port
    is
    closed the server has finished serving, so a process still alive `EXIT_GRACE` seconds
    later is stuck in such a join and is killed."""
    proc.terminate()
    deadline = time.monotonic() + STOP_TIMEOUT
    closed_at: float | None = None
    while proc.poll() is None and time.monotonic() < deadline:
        if closed_at is None and not is_listening(port):
            closed_at = time.monotonic()
        if closed_at is not None and time.monotonic() - closed_at > EXIT_GRACE:
            break
        time.sleep(0.05)
    killed = proc.poll() is None
    if killed:
        proc.kill()
    proc.wait()
    return killed


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
            "BACKGROUND_WORK": "on",
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
            self.proc.wait()
        else:
            terminate(self.proc, self.port)
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
