"""A real daphne on the embedded default (a SQLite file, the in-memory channel layer, nothing
else running), serving the legacy TCP door in-process (LEGACY_PORT), as `make run` does;
and a guest's session cookie got through the lobby's own nickname form."""

from __future__ import annotations

import atexit
import functools
import http.cookiejar
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
from pathlib import Path

from tests.server.daphne import ROOT, free_port, terminate, wait_for_port


def embedded_env(tmp_path: Path) -> dict:
    """The environment of a fresh checkout's `make run`: no DATABASE_URL, no REDIS_URL."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="stratego_site.settings",
        SQLITE_PATH=str(tmp_path / "embedded.sqlite3"),
        DEBUG="true",
        BACKGROUND_WORK="on",
    )
    return env


def manage(env: dict, *args: str, timeout: float = 300) -> str:
    command = [sys.executable, str(ROOT / "manage.py"), *args]
    done = subprocess.run(
        command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@functools.cache
def migrated_template() -> Path:
    """A SQLite file migrated once per test process (`manage.py migrate` costs about 1 CPU-s
    and seven tests start an embedded server); tests/server/test_embedded_sqlite still
    migrates a fresh file as `make run` does."""
    folder = Path(tempfile.mkdtemp(prefix="stratego-embedded-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    env = embedded_env(folder)
    manage(env, "migrate", "-v0")
    return Path(env["SQLITE_PATH"])


def migrated_database(env: dict) -> None:
    """The embedded database of `env`, migrated: a copy of the template."""
    shutil.copyfile(migrated_template(), env["SQLITE_PATH"])


class EmbeddedDaphne:
    """daphne with LEGACY_PORT on a migrated SQLite file of its own."""

    def __init__(self, tmp_path: Path, **env: str) -> None:
        self.env = {**embedded_env(tmp_path), **env}
        self.port = free_port()
        self.legacy_port = free_port()
        self.env["LEGACY_PORT"] = str(self.legacy_port)
        self.log = tmp_path / "daphne.log"
        self.proc: subprocess.Popen | None = None

    def start(self) -> EmbeddedDaphne:
        migrated_database(self.env)
        command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
                   "stratego_site.asgi:application"]  # fmt: skip
        with self.log.open("a") as out:
            self.proc = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT
            )
        wait_for_port(self.port, self.proc)
        wait_for_port(self.legacy_port, self.proc)
        return self

    def stop(self) -> bool:
        """Stop it; True if it had to be killed."""
        return self.proc is not None and terminate(self.proc, self.port)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"

    @property
    def origin(self) -> dict:
        return {"Origin": self.http}

    def log_text(self) -> str:
        return self.log.read_text()


def guest_session(base: str, nickname: str) -> str:
    """Sign on as a guest through the lobby's nickname form; the session cookie's value."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(base + "/", timeout=30).read()
    csrf = next(c.value for c in jar if c.name == "csrftoken")
    form = urllib.parse.urlencode({"nickname": nickname, "csrfmiddlewaretoken": csrf}).encode()
    request = urllib.request.Request(base + "/nickname/", data=form, headers={"Referer": base})
    opener.open(request, timeout=30).read()
    return next(c.value for c in jar if c.name == "sessionid")
