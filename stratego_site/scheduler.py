"""The server process's background work, started with the process (stratego_site/asgi.py),
not by the first socket that happens to connect:

- the presence heartbeat (games/transport/presence.py: restamps, purges, the absence sweep);
- the clock sweeper: a thread that sleeps until the earliest deadline of any active game
  (at most CLOCK_POLL_SECONDS, so new games are seen) and ends the games whose time ran out,
  so a flag falls on time with nobody connected, after a restart too;
- resuming the games with a computer seat.

Every process of a deployment runs it; services.expire is idempotent, so two processes ending
the same game at once end it once.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime

from django.db import close_old_connections

from games import services
from games.domain import clocks
from games.domain.models import Game
from games.services import computer
from games.transport import presence

logger = logging.getLogger(__name__)

CLOCK_POLL_SECONDS = 2.0  # the longest the sweeper sleeps without looking for new deadlines
CLOCK_SLACK_SECONDS = 0.02  # after a deadline, before the sweep that ends the game

_thread: threading.Thread | None = None
_stop = threading.Event()
_lock = threading.Lock()


def start() -> None:
    """Start the process's background work, once."""
    global _thread
    with _lock:
        if _thread is not None and _thread.is_alive():
            return
        _stop.clear()
        _thread = threading.Thread(target=_run, name="clock-sweeper", daemon=True)
        _thread.start()
    presence.start_heartbeat()


def stop(timeout: float = 10.0) -> None:
    """For tests and shutdown."""
    global _thread
    with _lock:
        thread, _thread = _thread, None
        _stop.set()
    if thread is not None:
        thread.join(timeout)
    presence.stop_heartbeat(timeout)


def request_stop() -> None:
    """At shutdown, from the event loop: the threads stop at their next wait (they are
    daemons; joining them there would block the loop)."""
    _stop.set()


def next_deadline() -> datetime | None:
    active = Game.objects.filter(
        status__in=[Game.Status.SETUP, Game.Status.PLAYING], deadline__isnull=False
    )
    return active.order_by("deadline").values_list("deadline", flat=True).first()


def seconds_to_sleep(deadline: datetime | None, now: datetime) -> float:
    if deadline is None:
        return CLOCK_POLL_SECONDS
    wait = (deadline - now).total_seconds() + CLOCK_SLACK_SECONDS
    return min(CLOCK_POLL_SECONDS, max(CLOCK_SLACK_SECONDS, wait))


def _run() -> None:
    resumed = False
    while not _stop.is_set():
        wait = CLOCK_POLL_SECONDS
        try:
            if not resumed:
                computer.resume_all()
                resumed = True
            services.sweep_expired()
            wait = seconds_to_sleep(next_deadline(), clocks.now())
        except Exception as exc:  # the database is away: look again later
            logger.warning("clock sweep failed: %r", exc)
        finally:
            close_old_connections()  # back to the pool (PostgreSQL) between sweeps
        _stop.wait(wait)
