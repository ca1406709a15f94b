"""A live server for the browser tests: daphne in a subprocess on a free port, on the test
database (pytest-django's `live_server` speaks no websockets), and Debian's Chromium.

The database is the real test database, written outside any test transaction so the
daphne process sees it; everything is flushed when the module's tests are done.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import setup_databases, teardown_databases

# Debian's Chromium; STRATEGO_CHROMIUM points elsewhere (the tests use it to check the message).
CHROMIUM = Path(os.environ.get("STRATEGO_CHROMIUM", "/usr/bin/chromium"))
# Playwright passes its own --disable-features list and Chromium keeps only the last one given,
# so ours repeats Playwright's (playwright-core's chromiumSwitches.ts at the locked version;
# test_chromium_flags checks it) before adding the omnibox popup: since Chromium ~150 every
# new window (every page) builds that popup as a WebUI in a renderer of its own, which a test
# never shows: without it a new page costs 0.19 CPU-s instead of 0.92 (Chromium 156,
# 2026-11, scripts/chromium_page_cost.py), the largest single cost of the browser tests.
PLAYWRIGHT_DISABLED_FEATURES = [
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
]
OMNIBOX_POPUP_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup"]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + OMNIBOX_POPUP_FEATURES),
]
ROOT = Path(__file__).resolve().parents[2]

# Playwright's sync API keeps an event loop in this thread; the ORM calls the tests make
# between browser steps are ordinary synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url() -> str:
    db = connection.settings_dict
    if "postgresql" not in db["ENGINE"]:
        pytest.fail("the browser tests need PostgreSQL (DATABASE_URL) so daphne shares the test DB")
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "localhost"
    port = db.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


def wait_until_up(url: str, process: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"daphne exited with code {process.returncode}; see artifacts/daphne.log")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    pytest.fail(f"daphne did not answer on {url} within {timeout:.0f}s")


def drop_other_sessions() -> None:
    """Close the connections the browser steps' ORM calls left open (they live in another
    async context than this one), so the test database can be dropped."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    connection.close()


def require_chromium() -> None:
    if not CHROMIUM.exists():
        pytest.fail(
            f"Chromium is missing: the browser tests drive Debian's Chromium at {CHROMIUM}. "
            "Install it with `apt-get install -y chromium` (or `make chromium`)."
        )


@pytest.fixture(scope="session")
def browser_database(request, django_db_blocker) -> Iterator[None]:
    """The test database, written outside any test transaction so daphne reads it.

    Chromium is looked for first: without it every browser test fails at once, before a
    test database is created and a daphne started for nothing.

    pytest-django creates the test database only when some collected test has a django_db
    mark; these tests have none (a transaction per test would hide the data from daphne),
    so when they run alone the database is created here, and dropped at the end.

    Either way, at the end the connections the tests' ORM calls left open in other async
    contexts (e.g. create_superuser between Playwright steps) are closed here: this fixture
    ends before pytest-django's django_db_setup, which then drops the database, and an open
    session would make that fail ("is being accessed by other users").
    """
    require_chromium()
    request.getfixturevalue("django_db_setup")
    with django_db_blocker.unblock():
        created = None
        if not connection.settings_dict["NAME"].startswith("test_"):
            created = setup_databases(verbosity=0, interactive=False, aliases={"default"})
        try:
            yield
        finally:
            SHARED_SERVER.close()
            drop_other_sessions()
            if created is not None:
                teardown_databases(created, verbosity=0)


@pytest.fixture(scope="module")
def shared_db(browser_database, django_db_blocker) -> Iterator[None]:
    """The database for one module's tests, flushed when they are done.

    The shared daphne may still be writing (a computer game the module left running): the
    flush's deletes can then deadlock with it, and PostgreSQL aborts one of the two. If the
    flush is the one, the daphne is stopped (the next module starts another) and the flush,
    alone now, is done again."""
    with django_db_blocker.unblock():
        try:
            yield
        finally:
            try:
                call_command("flush", interactive=False, verbosity=0)
            except CommandError:
                SHARED_SERVER.close()
                call_command("flush", interactive=False, verbosity=0)


class DaphneServer:
    """daphne serving the project on one port; it can be stopped and started again there."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": os.environ.get(
                "DJANGO_SETTINGS_MODULE", "stratego_site.test_settings"
            ),
            "DATABASE_URL": database_url(),
            "CHANNEL_PREFIX": f"stratego-browser-{uuid.uuid4().hex[:8]}",
            "DEBUG": "true",
            # the process's scheduler runs (clocks, heartbeat, events), as in any served
            # process, whatever an in-process test file of this run set for itself
            "BACKGROUND_WORK": "on",
        }
        self.env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        self.process: subprocess.Popen | None = None
        (ROOT / "artifacts").mkdir(exist_ok=True)
        self.log = open(ROOT / "artifacts" / "daphne.log", "a")  # noqa: SIM115 (closed in close)

    def start(self) -> None:
        command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port)]
        self.process = subprocess.Popen(
            [*command, "stratego_site.asgi:application"],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        wait_until_up(self.url + "/", self.process)

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def close(self) -> None:
        self.stop()
        self.log.close()


class SharedServer:
    """One daphne for a run of consecutive browser files on this worker (tests/conftest.py
    closes it before any other file, whose tests must not meet its background work: clock
    sweeps, computer players). Each file still gets a flushed database (`shared_db`), and
    the process holds nothing of a game between requests but its sockets. Starting daphne
    costs about 1 CPU-s, which each browser file paid before."""

    def __init__(self) -> None:
        self.live: DaphneServer | None = None

    def get(self) -> DaphneServer:
        if self.live is None:
            self.live = DaphneServer()
        if self.live.process is None:  # new, or a test stopped it and failed before restarting
            self.live.start()
        return self.live

    def close(self) -> None:
        if self.live is not None:
            self.live.close()
        self.live = None


SHARED_SERVER = SharedServer()


@pytest.fixture(scope="module")
def server(shared_db) -> DaphneServer:
    return SHARED_SERVER.get()


@pytest.fixture(scope="module")
def server_url(server: DaphneServer) -> str:
    return server.url


def launch_chromium() -> Iterator:
    """Playwright's driver and one Chromium, for as long as the generator runs (the `browser`
    fixture in tests/conftest.py: one for each run of consecutive browser files on a worker)."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture(scope="module")
def new_context(browser):
    """Factory of isolated browser contexts (one per person), closed at the end."""
    contexts = []

    def make(**options):
        options.setdefault("viewport", {"width": 1200, "height": 900})
        context = browser.new_context(**options)
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
