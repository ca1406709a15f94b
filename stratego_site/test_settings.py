"""Settings for the test suite: the real PostgreSQL and Redis on localhost by default."""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@localhost:5432/stratego")
os.environ.setdefault("REDIS_URL", "redis://localhost:6379/0")
os.environ.setdefault("CHANNEL_PREFIX", f"stratego-test-{os.getpid()}")
os.environ.setdefault("DEBUG", "true")

from .settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
