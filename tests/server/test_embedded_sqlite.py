"""The embedded default (`make run`: SQLite, no DATABASE_URL) never fails a move: several
games at once, people moving from threads while computers play, on one SQLite file. Before
WAL + IMMEDIATE transactions this failed with "database is locked" within seconds."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from .daphne import ROOT

SECONDS = 120  # a ceiling: the play stops once its counts are reached (sqlite_play.py)


def test_concurrent_games_on_sqlite_lose_no_move(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        SQLITE_PATH=str(tmp_path / "db.sqlite3"), DJANGO_SETTINGS_MODULE="stratego_site.settings"
    )
    out = subprocess.run(
        [sys.executable, "-m", "tests.server.sqlite_play", str(SECONDS)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    assert summary["failures"] == [], summary["failures"][:5]
    assert summary["people"] >= 60 and summary["computer_plies"] >= 20, summary
    assert summary["plies"] >= summary["people"] + summary["computer_plies"]


def test_the_embedded_settings_use_wal_and_immediate_transactions(tmp_path):
    probe = (
        "import django; django.setup(); from django.db import connection as c; "
        "cur = c.cursor(); cur.execute('PRAGMA journal_mode'); print(cur.fetchone()[0], "
        "c.settings_dict['OPTIONS']['transaction_mode'], c.settings_dict['CONN_MAX_AGE'])"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        SQLITE_PATH=str(tmp_path / "db.sqlite3"), DJANGO_SETTINGS_MODULE="stratego_site.settings"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.stdout.split() == ["wal", "IMMEDIATE", "600"], out.stderr
