"""The PostgreSQL backend's health check (stratego_site/postgresql/base.py): skipped for a
connection that completed a transaction within the last second, done otherwise, and a
connection that died is replaced, on the real PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, close_old_connections, connection, connections

from stratego_site.postgresql import base

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's backend"),
]


def one_transaction() -> int:
    """A request's work, as each database_sync_to_async call does it: Django's clean-up of
    old connections first, then a transaction. The backend's pid."""
    close_old_connections()
    with connection.cursor() as cursor:  # (autocommit: a statement is its transaction)
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    connection.commit()
    return pid


def checks_during(monkeypatch: pytest.MonkeyPatch, work) -> int:  # noqa: ANN001
    calls = []
    wrapper = connections["default"]  # (not the proxy: monkeypatch must restore it)
    real = wrapper.is_usable
    monkeypatch.setattr(wrapper, "is_usable", lambda: calls.append(1) or real())
    work()
    return len(calls)


def terminate(pid: int) -> None:
    """End a backend from another session, as a PostgreSQL restart would."""
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        other.close()


def test_a_busy_connection_is_not_checked_and_an_idle_one_is(monkeypatch):
    one_transaction()
    assert checks_during(monkeypatch, one_transaction) == 0  # proven a moment ago
    connection.proven_at -= base.HEALTHY_SECONDS  # as if idle for a second
    assert checks_during(monkeypatch, one_transaction) == 1


def test_a_connection_that_died_while_idle_is_replaced_without_an_error():
    pid = one_transaction()
    terminate(pid)
    connection.proven_at -= base.HEALTHY_SECONDS
    assert one_transaction() != pid


def test_a_connection_that_died_within_its_second_fails_once_then_is_replaced():
    """The documented trade: one action fails (the consumer answers it with an error frame);
    Django, knowing the connection failed, checks it before the next one."""
    pid = one_transaction()
    terminate(pid)
    with pytest.raises(DatabaseError):
        one_transaction()
    assert one_transaction() != pid
