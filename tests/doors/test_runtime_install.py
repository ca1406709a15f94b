"""What `make run` installs (requirements.lock alone, no test tools) runs every program the
README names: the web server's migrations, the terminal game (local and its online mode's
client), the bot client, the TCP door and a tournament. The environment is built here from
the runtime lock, with the hashes, as the Makefile builds it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

ROOT = Path(__file__).resolve().parents[2]
UV = ROOT / ".venv" / "bin" / "uv"
PROMPT = r"RED MOVE: Enter current coordinates of piece"


@pytest.fixture(scope="module")
def runtime(tmp_path_factory) -> tuple[Path, dict]:
    """(the runtime environment's python, the environment of the embedded default)."""
    where = tmp_path_factory.mktemp("runtime")
    venv = where / "venv"
    subprocess.run([str(UV), "venv", "-q", "--python", sys.executable, str(venv)], check=True)
    install = [str(UV), "pip", "install", "-q", "--require-hashes", "-r", "requirements.lock"]
    subprocess.run(install, cwd=ROOT, check=True, env={**os.environ, "VIRTUAL_ENV": str(venv)})
    env = {
        "PATH": f"{venv / 'bin'}:/usr/bin:/bin",
        "HOME": str(where),
        "DJANGO_SETTINGS_MODULE": "stratego_site.settings",
        "SQLITE_PATH": str(where / "db.sqlite3"),  # the embedded default, on a file of its own
    }
    python = venv / "bin" / "python"
    subprocess.run([str(python), "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                   env=env, check=True, timeout=120)  # fmt: skip
    return python, env


def run(python: Path, env: dict, *args: str, timeout: float = 120) -> str:
    done = subprocess.run([str(python), *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def test_the_runtime_lock_holds_no_test_tool(runtime):
    python, env = runtime
    done = subprocess.run([str(python), "-c", "import pytest"], env=env, capture_output=True)
    assert done.returncode != 0  # so what passes below passes on the runtime lock alone


def test_the_terminal_game_starts(runtime):
    python, env = runtime
    game = pexpect.spawn(str(python), ["manage.py", "play", "--seed", "3"], cwd=str(ROOT),
                         env=env, encoding="utf-8", timeout=60)  # fmt: skip
    try:
        game.expect(PROMPT)
    finally:
        game.terminate(force=True)


def test_the_bot_client_and_the_online_terminal_start(runtime):
    python, env = runtime
    assert "usage" in run(python, env, "-m", "clients.bot", "--help").lower()
    assert "--server" in run(python, env, "manage.py", "play", "--help")


def test_a_tournament_runs(runtime):
    python, env = runtime
    out = run(python, env, "manage.py", "tournament", "--variant", "mini", "--games", "2",
              "--no-progress", "random", "medium")  # fmt: skip
    assert "random" in out and "medium" in out


def test_the_tcp_door_serves(runtime):
    python, env = runtime
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    door = subprocess.Popen([str(python), "manage.py", "serve_legacy", "--port", str(port)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            assert door.poll() is None, door.stdout.read()
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the door never listened"
                time.sleep(0.2)
    finally:
        door.terminate()
        door.wait(10)
