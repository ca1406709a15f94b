"""The site's ASGI application, plus a count of the SQL statements this process ran.

Every database connection the process opens gets an execute wrapper that counts; the
count is served at GET /__bench__/statements (only under the bench: production starts
stratego_site.asgi:application). pg_stat_statements needs a server restart with
shared_preload_libraries, and pg_stat_database counts transactions, not statements.
"""

from __future__ import annotations

import json
import threading

from django.db.backends.signals import connection_created

from stratego_site.asgi import application as site

_lock = threading.Lock()
_count = [0]


def _counting(execute, sql, params, many, context):
    with _lock:
        _count[0] += 1
    return execute(sql, params, many, context)


def _instrument(sender, connection, **kwargs) -> None:
    if _counting not in connection.execute_wrappers:
        connection.execute_wrappers.append(_counting)


connection_created.connect(_instrument)


async def application(scope, receive, send) -> None:
    if scope["type"] == "http" and scope["path"] == "/__bench__/statements":
        body = json.dumps({"statements": _count[0]}).encode()
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json")]})  # fmt: skip
        await send({"type": "http.response.body", "body": body})
        return
    await site(scope, receive, send)
