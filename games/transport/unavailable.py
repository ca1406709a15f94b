"""The database could not serve a request: no pooled connection came free in time, the
server is restarting or unreachable, or the transaction lost a deadlock. Each door answers
it as load, not as a bug: a page 503 with Retry-After (stratego_site/middleware.py), a socket
action the coded error `unavailable` (games/transport/consumers.py), a socket that cannot open close
4503, "try again later". A warning line is logged, never a traceback: nothing is broken."""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.utils.translation import gettext_noop

logger = logging.getLogger("stratego.unavailable")

# django.db's wrappers of psycopg's errors: psycopg_pool's PoolTimeout and a lost server
# arrive as OperationalError, a connection already closed as InterfaceError.
ERRORS = (OperationalError, InterfaceError)

RETRY_AFTER_SECONDS = 2
CLOSE_TRY_AGAIN = 4503  # "try again later" (a server may send only 1000 or 3000-4999)
MESSAGE = gettext_noop("The server is busy right now. Please try again in a moment.")


def note(where: str, exc: BaseException) -> None:
    first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    logger.warning("database unavailable (%s): %s", where, first_line)
