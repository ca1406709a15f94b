"""Settings come from the environment; production refuses a missing or weak SECRET_KEY."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import django, json; django.setup(); from django.conf import settings as s; "
    "print(json.dumps([s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'],"
    " s.DEBUG, s.ALLOWED_HOSTS, s.INSTALLED_APPS[0]]))"
)


def probe(code: str = PROBE, **env: str) -> subprocess.CompletedProcess:
    chosen = ("DATABASE_URL", "REDIS_URL", "CHANNEL_LAYER_BACKEND")  # (by each test)
    base = {k: v for k, v in os.environ.items() if k not in chosen}
    base.update(DJANGO_SETTINGS_MODULE="stratego_site.settings", **env)
    for key in [k for k, v in base.items() if v == ""]:
        del base[key]
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=base, capture_output=True, text=True
    )


def test_embedded_default_without_urls():
    out = probe(SECRET_KEY="", DEBUG="")
    assert out.returncode == 0, out.stderr
    assert (
        '"django.db.backends.sqlite3", "channels.layers.InMemoryChannelLayer", true' in out.stdout
    )
    assert '"daphne"]' in out.stdout


def test_postgres_and_redis_from_urls():
    out = probe(
        DATABASE_URL="postgres://postgres@localhost:5432/x",
        REDIS_URL="redis://localhost:6379/0",
        ALLOWED_HOSTS="a.example,b.example",
    )
    assert out.returncode == 0, out.stderr
    assert "postgresql" in out.stdout
    assert "games.transport.layers.ResilientRedisChannelLayer" in out.stdout
    assert '["a.example", "b.example"]' in out.stdout


def test_the_channel_layer_may_be_the_librarys_for_a_comparison():
    urls = {"DATABASE_URL": "postgres://postgres@localhost:5432/x", "REDIS_URL": "redis://h:1/0"}
    for choice, backend in (
        ("library", "channels_redis.core.RedisChannelLayer"),
        ("pubsub", "channels_redis.pubsub.RedisPubSubChannelLayer"),
        ("site", "games.transport.layers.ResilientRedisChannelLayer"),
    ):
        out = probe(CHANNEL_LAYER_BACKEND=choice, **urls)
        assert out.returncode == 0, out.stderr
        assert f'"{backend}"' in out.stdout
    wrong = probe(CHANNEL_LAYER_BACKEND="fastest", **urls)
    assert wrong.returncode != 0
    assert "CHANNEL_LAYER_BACKEND is one of site, library, pubsub, not 'fastest'" in wrong.stderr


def test_production_refuses_missing_or_weak_secret():
    assert "SECRET_KEY" in probe(DEBUG="false", SECRET_KEY="").stderr
    assert probe(DEBUG="false", SECRET_KEY="short").returncode != 0
    ok = probe(DEBUG="false", SECRET_KEY="x" * 50)
    assert ok.returncode == 0 and ", false," in ok.stdout


def test_computer_pacing_from_the_environment():
    code = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "print(json.dumps([s.COMPUTER_REPLY_DELAY, s.COMPUTER_GAME_GHOST_SECONDS]))"
    )
    default = probe(code, COMPUTER_REPLY_DELAY="", COMPUTER_GAME_GHOST_SECONDS="")
    assert default.stdout.strip() == "[[0.6, 1.2], 300.0]", default.stderr
    fixed = probe(code, COMPUTER_REPLY_DELAY="0.25", COMPUTER_GAME_GHOST_SECONDS="120")
    assert fixed.stdout.strip() == "[[0.25, 0.25], 120.0]", fixed.stderr
    for bad in ("1.2-0.6", "soon"):
        out = probe(code, COMPUTER_REPLY_DELAY=bad)
        assert out.returncode != 0 and "COMPUTER_REPLY_DELAY" in out.stderr
