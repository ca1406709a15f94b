"""The events' background work: a job of the process's one scheduler
(stratego_site/scheduler.py `EVENTS`, started with the others in one place):

- players absent from a game of an event: once the event's grace is over, a seat that never
  connected loses by forfeit (both: the game is aborted, lost by both);
- each event's next step (tournaments/rounds.py): the start on time, the next round when one
  is complete and its pause is over, an arena's pairings, the end.

It wakes at least every POLL_SECONDS, and at once when a game of an event ends in this
process (tournaments/live.py). Every step reads the database and takes the event's row lock
(skipping an event another process holds), so several processes, or a restart, are safe."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import close_old_connections
from django.db.models import Q

from games.domain import clocks, presence
from games.domain.models import BLUE, RED, Game
from games.services import forfeit_seat

from . import live, rounds
from .models import Entrant, Pairing, Tournament

logger = logging.getLogger(__name__)

POLL_SECONDS = 1.0


def sweep(now: datetime | None = None) -> None:
    """One pass over every open event (tests call it directly)."""
    now = now or clocks.now()
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
            forfeit_seat(game.public_id, absent[0])
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


def turn() -> float:
    """One turn of the events' job of the process's scheduler (stratego_site/scheduler.py
    `EVENTS`): a sweep, then the seconds to wait (a game of an event that ends wakes it
    sooner, through `live.woken`)."""
    try:
        sweep()
    except Exception as exc:  # the database is away: look again later
        logger.warning("event sweep failed: %r", exc)
    finally:
        close_old_connections()
    return POLL_SECONDS
