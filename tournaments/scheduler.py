"""The events' background work, in each server process beside the clock sweeper
(stratego_site/asgi.py starts it with games/background.py):

- players absent from a game of an event: once the event's grace is over, a seat that never
  connected loses by forfeit (both: the game is aborted, lost by both);
- each event's next step (tournaments/rounds.py): the start on time, the next round when one
  is complete and its pause is over, an arena's pairings, the end.

It wakes at least every POLL_SECONDS, and at once when a game of an event ends in this
process (tournaments/live.py). Every step reads the database and takes the event's row lock
(skipping an event another process holds), so several processes, or a restart, are safe."""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta

from django.db import close_old_connections, connections
from django.db.models import Q

from games import presence, services
from games.models import BLUE, RED, Game

from . import live, rounds
from .models import Entrant, Pairing, Tournament

logger = logging.getLogger(__name__)

POLL_SECONDS = 1.0

_thread: threading.Thread | None = None
_stop = threading.Event()
_wake = threading.Event()
_lock = threading.Lock()


def sweep(now: datetime | None = None) -> None:
    """One pass over every open event (tests call it directly)."""
    now = now or services.clocks.now()
    forfeit_absent(now)
    due = Tournament.objects.filter(
        Q(status=Tournament.Status.RUNNING)
        | Q(status=Tournament.Status.UPCOMING, starts_at__lte=now)
    )
    for tournament_id in due.values_list("pk", flat=True):
        try:
            rounds.advance(tournament_id, now)
        except Exception:  # one broken event must not stop the others
            logger.exception("event %s could not move on", tournament_id)


def forfeit_absent(now: datetime) -> None:
    """Seats of an event's games still in setup: note who connected; once the event's grace
    is over, a seat nobody ever connected to loses by forfeit."""
    waiting = Pairing.objects.filter(
        red_score=None,
        tournament__status=Tournament.Status.RUNNING,
        game__status=Game.Status.SETUP,
    ).select_related("game", "tournament")
    for pairing in waiting:
        game = pairing.game
        seen = seats_seen(pairing, game)
        if (seen[RED], seen[BLUE]) != (pairing.red_seen, pairing.blue_seen):
            Pairing.objects.filter(pk=pairing.pk).update(red_seen=seen[RED], blue_seen=seen[BLUE])
        if now < pairing.created + timedelta(seconds=pairing.tournament.grace_seconds):
            continue
        absent = [color for color in (RED, BLUE) if not seen[color]]
        if len(absent) == 2:
            rounds.abort_game(game.public_id)
        elif absent:
            services.forfeit_seat(game.public_id, absent[0])
        if absent and pairing.tournament.format == Tournament.Format.ARENA:
            pause_in_arena(pairing, absent, now)


def pause_in_arena(pairing: Pairing, absent: list[int], now: datetime) -> None:
    """An arena pairs a free player again at once: one who was not there is withdrawn, so
    nobody else waits out a grace for them again (entering again brings them back)."""
    gone = [pairing.red_id if color == RED else pairing.blue_id for color in absent]
    Entrant.objects.filter(pk__in=gone, withdrawn=None).update(withdrawn=now)
    live.changed_on_commit(pairing.tournament_id, wake=True)


def seats_seen(pairing: Pairing, game: Game) -> dict[int, bool]:
    if game.status == Game.Status.PLAYING:
        return {RED: True, BLUE: True}  # both were ready
    connected = presence.players_connected(game.pk)
    return {
        RED: pairing.red_seen or RED in connected or bool(game.red_computer),
        BLUE: pairing.blue_seen or BLUE in connected or bool(game.blue_computer),
    }


def wake() -> None:
    _wake.set()


live.waker = wake


def start() -> None:
    """Start this process's event scheduler, once."""
    global _thread
    with _lock:
        if _thread is not None and _thread.is_alive():
            return
        _stop.clear()
        _thread = threading.Thread(target=_run, name="tournament-scheduler", daemon=True)
        _thread.start()


def stop(timeout: float = 10.0) -> None:
    global _thread
    with _lock:
        thread, _thread = _thread, None
        _stop.set()
        _wake.set()
    if thread is not None:
        thread.join(timeout)


def _run() -> None:
    while not _stop.is_set():
        _wake.clear()
        try:
            sweep()
        except Exception as exc:  # the database is away: look again later
            logger.warning("event sweep failed: %r", exc)
        finally:
            close_old_connections()
        _wake.wait(POLL_SECONDS)
    connections.close_all()  # this thread's: a stopped scheduler holds no connection
