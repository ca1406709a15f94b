"""The servers the tests start with the test settings keep the bounded pool; only the test
process itself keeps persistent connections (stratego_site/test_settings.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from django.conf import settings

PRINT_DATABASE = (
    "import django, json; django.setup(); from django.conf import settings; "
    "db = settings.DATABASES['default']; "
    "print(json.dumps({'pool': db.get('OPTIONS', {}).get('pool'), 'age': db['CONN_MAX_AGE']}))"
)


def test_a_server_started_with_the_test_settings_borrows_from_the_pool():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "stratego_site.test_settings"}
    done = subprocess.run([sys.executable, "-c", PRINT_DATABASE], env=env, check=True,
                          capture_output=True, text=True)  # fmt: skip
    database = json.loads(done.stdout.strip().splitlines()[-1])
    assert database["pool"]["max_size"] == settings.DATABASE_POOL_SIZE
    assert database["age"] == 0


def test_the_test_process_keeps_its_own_connections():
    database = settings.DATABASES["default"]
    assert "pool" not in database.get("OPTIONS", {})
    assert database["CONN_MAX_AGE"] == 600
