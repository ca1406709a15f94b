"""A server process holds at most DATABASE_POOL_SIZE PostgreSQL connections, whatever the
traffic (stratego_site/settings.py): production settings (DEBUG off) on a real daphne answer
hundreds of page views, one after another and at once, with no 5xx; a pool exhausted on
purpose answers pages 503 with Retry-After and socket actions the coded error
`unavailable`, and the server recovers by itself when connections come free."""

from __future__ import annotations

import json
import os
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from django.test import override_settings
from websockets.exceptions import ConnectionClosed

from .daphne import Daphne, assert_clean_log, db_url
from .helpers import set_up_game
from .test_idle_sockets import frames_until, is_move, open_socket

pytestmark = pytest.mark.django_db(transaction=True)

POOL_SIZE = 4
# DEBUG off refuses the development key: the servers here sign sessions with this one, and
# the test's own sessions are made with it too (`production_sessions`)
SECRET_KEY = "a-secret-for-the-production-settings-under-test-" * 2


def app_name(name: str) -> str:
    """`name` as this test process tags its server's connections: another suite running on
    the same PostgreSQL at the same time tags its own differently (pg_stat_activity lists
    every database's connections)."""
    return f"{name}-{os.getpid()}"


def production(name: str, **extra: str) -> dict:
    """The environment of a production process (DEBUG off), its connections tagged `name`."""
    return {
        "DEBUG": "false",
        "SECRET_KEY": SECRET_KEY,
        "SECURE_COOKIES": "false",
        "PGAPPNAME": app_name(name),
        "DATABASE_POOL_SIZE": str(POOL_SIZE),
        **extra,
    }


def connections_of(name: str) -> int:
    with psycopg.connect(db_url(), autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [app_name(name)]
        ).fetchone()
    return row[0]


class Sampler:
    """The most connections `name` held, sampled every 20 ms while it runs."""

    def __init__(self, name: str) -> None:
        self.name, self.most, self.stop = name, 0, threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        while not self.stop.is_set():
            self.most = max(self.most, connections_of(self.name))
            time.sleep(0.02)

    def __enter__(self) -> Sampler:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(5)


def get(url: str, cookie: str | None = None, timeout: float = 30) -> tuple[int, dict, str]:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read().decode()


production_sessions = override_settings(SECRET_KEY=SECRET_KEY)


def late_socket(server: Daphne, gid: str, ident) -> tuple[str | None, int | None]:
    """A socket opened while the pool is dry: its error frame's code and its close code."""
    code = None
    with open_socket(server, gid, ident) as ws:
        try:
            while True:
                frame = json.loads(ws.recv(timeout=10))
                code = frame.get("code", code)
        except ConnectionClosed as closed:
            return code, closed.rcvd.code if closed.rcvd else None
    return code, None


@production_sessions
def test_production_page_views_stay_within_the_pool(tmp_path):
    gid, red, _ = set_up_game()
    server = Daphne(tmp_path / "daphne.log", env=production("pages")).start()
    try:
        base = f"http://127.0.0.1:{server.port}"
        paths = ["/", "/players/", f"/games/{gid}/", "/players/?variant=classic"]
        cookie = f"sessionid={red.session_key}"
        with Sampler("pages") as sampler:
            one_by_one = [get(base + paths[i % len(paths)], cookie)[0] for i in range(120)]
            with ThreadPoolExecutor(40) as crowd:
                at_once = list(
                    crowd.map(lambda i: get(base + paths[i % len(paths)])[0], range(240))
                )
        assert one_by_one == [200] * 120
        assert at_once == [200] * 240
        assert red.name in get(base + "/", cookie)[2]  # signed on: the session was read
        assert 0 < sampler.most <= POOL_SIZE, sampler.most
        assert connections_of("pages") <= POOL_SIZE
    finally:
        server.stop()
    assert_clean_log(server.log_text())


@production_sessions
def test_an_exhausted_pool_answers_503_and_coded_errors_then_recovers(tmp_path):
    gid, red, blue = set_up_game()
    env = production("exhausted", DATABASE_POOL_MIN="1", DATABASE_POOL_TIMEOUT="0.5")
    server = Daphne(tmp_path / "daphne.log", env=env).start()
    base = f"http://127.0.0.1:{server.port}"
    cookie = f"sessionid={red.session_key}"
    try:
        with open_socket(server, gid, red) as red_ws, open_socket(server, gid, blue) as blue_ws:
            frames_until(red_ws, lambda f: f["type"] == "state")
            frames_until(blue_ws, lambda f: f["type"] == "state")
            # Every page that reads its session now waits on the lock with a connection
            # borrowed: the pool runs dry.
            locker = psycopg.connect(db_url())
            try:
                locker.execute("LOCK TABLE django_session IN ACCESS EXCLUSIVE MODE")
                with ThreadPoolExecutor(12) as crowd:
                    pages = [crowd.submit(get, base + "/players/", cookie) for _ in range(12)]
                    try:
                        time.sleep(1.5)  # the first POOL_SIZE hold the pool, the rest time out
                        red_ws.send(json.dumps({"type": "move", "from": 7, "to": 12}))
                        refused = frames_until(red_ws, lambda f: f["type"] == "error")
                        late = late_socket(server, gid, blue)
                    finally:
                        locker.rollback()  # the lock goes: the waiting pages finish
                    answers = [page.result() for page in pages]
            finally:
                locker.close()
            statuses = sorted(status for status, _, _ in answers)
            assert set(statuses) == {200, 503}, statuses
            assert statuses.count(200) <= POOL_SIZE
            busy = next(a for a in answers if a[0] == 503)
            assert busy[1]["Retry-After"] == "2" and "try again" in busy[2]
            assert refused["code"] == "unavailable" and refused["request"] == "move"
            assert late == ("unavailable", 4503)
            # recovered by itself: the same move now goes through, pages answer 200
            red_ws.send(json.dumps({"type": "move", "from": 7, "to": 12}))
            frames_until(blue_ws, is_move(1))
            assert get(base + "/players/", cookie)[0] == 200
            status, headers, body = get(base + "/api/bot/account/")
            assert status != 503 and status < 500
    finally:
        server.stop()
    log = server.log_text()
    assert_clean_log(log)
    assert "database unavailable (socket action 'move')" in log
    assert "database unavailable (/players/)" in log
