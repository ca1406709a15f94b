"""PostgreSQL connections held by one production daphne (DEBUG off) under plain page views:
`python scripts/page_view_connections.py [--sequential 120] [--concurrent 200] [--clients 50]`.

It starts daphne on a database of its own (stratego_pageviews, dropped and made afresh), opens
`/` and `/players/` one after another, then `/players/` from many clients at once, and prints
the statuses and the connections the server held after each step and five seconds later."""

from __future__ import annotations

import argparse
import os
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import stack  # noqa: E402

os.environ.setdefault("BENCH_DATABASE", "stratego_pageviews")
stack.BENCH_DB = os.environ["BENCH_DATABASE"]


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return 0


def held(url: str) -> int | str:
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            return conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid()"
            ).fetchone()[0]
    except psycopg.OperationalError as exc:  # the server held them all: nobody else gets one
        return f"? (PostgreSQL refused this script's own connection: {str(exc).strip()[-40:]})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sequential", type=int, default=120)
    parser.add_argument("--concurrent", type=int, default=200)
    parser.add_argument("--clients", type=int, default=50)
    args = parser.parse_args()
    env = stack.server_env()
    stack.create_database(env)
    db = stack.bench_database_url()
    port = stack.free_port(8600)
    log = Path("/tmp/page_view_connections.log")
    log.unlink(missing_ok=True)
    server = stack.Server("stratego_site.asgi:application", port, env, log).start()
    base = f"http://127.0.0.1:{port}"
    try:
        time.sleep(2)
        print(f"at start: {held(db)} connections")
        for path in ("/", "/players/"):
            statuses = Counter(status_of(base + path) for _ in range(args.sequential))
            print(f"{args.sequential} x {path} one after another: {dict(statuses)}; "
                  f"{held(db)} connections held")  # fmt: skip
        with ThreadPoolExecutor(args.clients) as crowd:
            statuses = Counter(crowd.map(lambda _: status_of(base + "/players/"),
                                         range(args.concurrent)))  # fmt: skip
        print(f"{args.concurrent} x /players/ from {args.clients} clients at once: "
              f"{dict(statuses)}; {held(db)} connections held")  # fmt: skip
        time.sleep(5)
        print(f"five seconds later: {held(db)} connections held")
    finally:
        server.stop()
    print(f"tracebacks in the server's log: {log.read_text().count('Traceback')}")


if __name__ == "__main__":
    main()
