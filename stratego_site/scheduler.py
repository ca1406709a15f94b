"""The process's one scheduler: every background sweep of the server runs here. It is
started in one place, with the process (stratego_site/asgi.py; a TCP-only process:
`manage.py serve_legacy`), not by the first socket that connects. Five threads:

- the heartbeat, every HEARTBEAT_SECONDS: the presence rows of this process's sockets
  (games/transport/presence.py `beat`), then the sweep of the games nobody may be watching
  (`sweep`: seats never connected count as gone, abandoned games and unwatched computer
  games end);
- the clock: it sleeps until the earliest deadline of any active game (at most
  CLOCK_POLL_SECONDS, so new games are seen) and asks the services to end the games whose
  time ran out (the unit of work decides: games/services/unit.py `settle_clock`), so a
  flag falls on time with nobody connected, after a restart too. First it resumes the
  games with a computer seat;
- the garbage collector's full collection, every FULL_COLLECTION_SECONDS
  (stratego_site/gctune.py);
- the events (tournaments/scheduler.py `turn`), every POLL_SECONDS and at once when a game
  of an event ends in this process: the starts on time, forfeits of absent players, the
  next rounds, the ends;
- the event loop's lag, measured only when its logger is at DEBUG
  (stratego_site/looplag.py).

Every process of a deployment runs it; ending a game on time is idempotent, so two processes
ending the same game at once end it once.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime

from django.db import close_old_connections, connections

from games import services
from games.domain import clocks
from games.domain.models import Game
from games.services import absence, cleanup, computer
from games.transport import presence
from stratego_site import gctune, looplag
from tournaments import live as event_news
from tournaments import scheduler as events

logger = logging.getLogger(__name__)

CLOCK_POLL_SECONDS = 2.0  # the longest the sweeper sleeps without looking for new deadlines
CLOCK_SLACK_SECONDS = 0.02  # after a deadline, before the sweep that ends the game


class Job:
    """A daemon thread running `body` until stopped; `body` returns the seconds to wait.
    With `woken`, setting that event ends a wait early (the next turn runs at once)."""

    def __init__(
        self, name: str, body: Callable[[], float], woken: threading.Event | None = None
    ) -> None:
        self.name, self.body = name, body
        self.thread: threading.Thread | None = None
        self.stopping = threading.Event()
        self.woken = woken or self.stopping
        self.lock = threading.Lock()

    def start(self) -> None:
        with self.lock:
            if self.thread is not None and self.thread.is_alive():
                return
            self.stopping.clear()
            self.thread = threading.Thread(target=self.run, name=self.name, daemon=True)
            self.thread.start()

    def run(self) -> None:
        while not self.stopping.is_set():
            if self.woken is not self.stopping:
                self.woken.clear()  # (a wake-up before this turn is served by it)
            self.woken.wait(self.body())

    def request_stop(self) -> None:
        self.stopping.set()
        self.woken.set()

    def stop(self, timeout: float) -> None:
        with self.lock:
            thread, self.thread = self.thread, None
            self.stopping.set()
            self.woken.set()
        if thread is not None:
            thread.join(timeout)


# ---------------------------------------------------------------- the heartbeat


def sweep() -> None:
    """The games nobody may be watching: a seat never connected to counts as gone once the
    game is far enough into its setup (or turn), abandoned games and unwatched computer
    games end."""
    absence.mark_never_connected()
    cleanup.sweep()


def heartbeat() -> float:
    try:
        presence.beat()
        sweep()
    except Exception as exc:  # the database is away; the next beat tries again
        logger.warning("presence heartbeat failed: %r", exc)
    finally:
        connections.close_all()  # this thread's connections only
    return presence.HEARTBEAT_SECONDS


# ---------------------------------------------------------------- the clock


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


def clock() -> float:
    try:
        computer.resume_all()  # (once per process)
        services.sweep_expired()
        return seconds_to_sleep(next_deadline(), clocks.now())
    except Exception as exc:  # the database is away: look again later
        logger.warning("clock sweep failed: %r", exc)
        return CLOCK_POLL_SECONDS
    finally:
        close_old_connections()  # back to the pool (PostgreSQL) between sweeps


HEARTBEAT = Job("presence-heartbeat", heartbeat)
CLOCK = Job("clock-sweeper", clock)
# what only a full collection frees (the cycles of closed sockets): stratego_site/gctune.py
GARBAGE = Job("garbage-collector", gctune.full_collection)
EVENTS = Job("tournament-scheduler", events.turn, woken=event_news.woken)
# how late the event loop runs what is due, when asked for (stratego_site/looplag.py)
LOOP_LAG = Job("event-loop-lag", looplag.measure)
JOBS = (CLOCK, HEARTBEAT, GARBAGE, EVENTS, LOOP_LAG)


def start() -> None:
    """Start the process's background work, once (the heartbeat beats at once: a fresh
    process purges what a dead one left, as soon as that is older than the TTL)."""
    for job in JOBS:
        job.start()


def stop(timeout: float = 10.0) -> None:
    """For tests and shutdown: stop the threads and wait for them."""
    for job in JOBS:
        job.stop(timeout)


def request_stop() -> None:
    """At shutdown, from the event loop: the threads stop at their next wait (they are
    daemons; joining them there would block the loop)."""
    for job in JOBS:
        job.request_stop()
