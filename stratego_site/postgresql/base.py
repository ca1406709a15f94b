"""PostgreSQL: Django's backend, with a health check that costs no round trip while the
connection is busy.

Django's CONN_HEALTH_CHECKS sends `SELECT 1` before the first statement of every "request",
and for Channels every `database_sync_to_async` call is one: a round trip (and a statement for
PostgreSQL to run) on top of each action's own. Here a connection that completed a
transaction or a check less than HEALTHY_SECONDS ago counts as healthy without asking, as
connection pools do (HikariCP skips validating a connection used in the last 500 ms). The
trade: a connection that broke within that second (PostgreSQL restarted, say) fails the one
action that finds it (an error frame, nothing changed), and Django, which then knows the
connection had an error, checks it properly before its next use.
"""

from __future__ import annotations

import time

from django.db.backends.postgresql import base

HEALTHY_SECONDS = 1.0


class DatabaseWrapper(base.DatabaseWrapper):
    proven_at = float("-inf")  # (monotonic) when the connection last completed a round trip

    def close_if_health_check_failed(self) -> None:
        recent = time.monotonic() - self.proven_at < HEALTHY_SECONDS
        if self.connection is not None and recent and not self.errors_occurred:
            self.health_check_done = True
            return
        super().close_if_health_check_failed()
        if self.connection is not None:
            self.proven_at = time.monotonic()

    def _commit(self) -> None:
        super()._commit()
        self.proven_at = time.monotonic()

    def close(self) -> None:
        super().close()
        self.proven_at = float("-inf")
