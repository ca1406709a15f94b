"""Settings for the test suite: the real PostgreSQL and Redis on localhost by default."""

import os
import sys

os.environ.setdefault("DATABASE_URL", "postgres://postgres@localhost:5432/stratego")
os.environ.setdefault("REDIS_URL", "redis://localhost:6379/0")
os.environ.setdefault("CHANNEL_PREFIX", f"stratego-test-{os.getpid()}")
# An xdist worker inherits the controller's prefix: each worker adds its name to it. The
# processes a worker starts (daphne, serve_legacy) inherit the worker's name too, so the
# suffix is added once: all of them share the prefix they were given.
_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker and not os.environ["CHANNEL_PREFIX"].endswith(f"-{_worker}"):
    os.environ["CHANNEL_PREFIX"] += f"-{_worker}"
os.environ.setdefault("DEBUG", "true")
# The computer answers at once: the tests that time its pause set one. In the environment, so
# the servers the tests start (production settings) inherit it too.
os.environ["COMPUTER_REPLY_DELAY"] = "0"

from .settings import *  # noqa: E402,F403

# Each test run gets its own database: teammates and CI may run the suite at the same time.
DATABASES["default"].setdefault("TEST", {})["NAME"] = (  # noqa: F405
    os.environ.get("TEST_DATABASE_NAME") or f"test_stratego_{os.getpid()}"
)

# The test process itself keeps persistent connections instead of the servers' bounded pool:
# its harness makes ORM calls from many async contexts (browser steps between Playwright
# calls, threads of its own), each with a connection of its own that it never gives back, and
# a pool would run dry. The servers the tests start with these settings (daphne, the door)
# keep the pool, as in production: without it each page view's thread kept a connection of
# its own, and a few browser files at once ran PostgreSQL out of connections.
in_test_process = "pytest" in sys.modules
if in_test_process and "pool" in DATABASES["default"].get("OPTIONS", {}):  # noqa: F405
    del DATABASES["default"]["OPTIONS"]["pool"]  # noqa: F405
    DATABASES["default"]["CONN_MAX_AGE"] = 600  # noqa: F405

# The same PostgreSQL, with a flush that deletes rows instead of truncating tables (about 40
# times faster at the end of each transactional test; stratego_site/test_postgresql/base.py).
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    DATABASES["default"]["ENGINE"] = "stratego_site.test_postgresql"  # noqa: F405

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# The limits of games/services/rate_limits.py, a hundred times the defaults: the suite's servers
# open
# many games from one address. The limits' own tests set the scale back to 1.
RATE_LIMIT_SCALE = float(os.environ.get("RATE_LIMIT_SCALE", "100"))
CACHES["default"]["KEY_PREFIX"] = os.environ["CHANNEL_PREFIX"]  # noqa: F405
