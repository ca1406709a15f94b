"""PostgreSQL for the test suite: Django's backend, with a flush that deletes rows instead of
truncating tables, and a test database that is dropped even if a connection is left open.

Every transactional test (and every browser test module) ends with a flush. TRUNCATE gives
each table a new file and syncs it at commit: 0.36-1.1 s for our 22 tables on these machines,
against 10-20 ms for DELETEs of the few rows a test leaves. Django's foreign keys on
PostgreSQL are DEFERRABLE INITIALLY DEFERRED and a flush runs in one transaction, so the
order of the DELETEs does not matter. A flush that resets sequences or cascades to tables
outside Django keeps the TRUNCATE.

At the end of a run, a connection some thread still holds (a worker thread of
`database_sync_to_async`, a background sweep) made DROP DATABASE wait 5 s for it, then fail:
each xdist worker ended 5 s late and left its database behind. DROP DATABASE ... WITH (FORCE)
(PostgreSQL 13) ends those sessions first.
"""

from __future__ import annotations

from django.db.backends.postgresql import base, creation, operations


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(
        self, style, tables, *, reset_sequences: bool = False, allow_cascade: bool = False
    ) -> list[str]:
        if reset_sequences or allow_cascade:
            return super().sql_flush(
                style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        delete = f"{style.SQL_KEYWORD('DELETE')} {style.SQL_KEYWORD('FROM')}"
        return [f"{delete} {style.SQL_FIELD(self.quote_name(table))};" for table in tables]


class DatabaseCreation(creation.DatabaseCreation):
    def _destroy_test_db(self, test_database_name: str, verbosity: int) -> None:
        self.connection.close_pool()
        with self._nodb_cursor() as cursor:
            cursor.execute(f"DROP DATABASE {self._quote_name(test_database_name)} WITH (FORCE)")


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
    creation_class = DatabaseCreation
