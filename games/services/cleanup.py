"""A clean lobby, run by the presence heartbeat's sweep:

- an untimed game that no person has been connected to for GHOST_SECONDS ends as
  `abandoned` (status `aborted`, no result: it counts nowhere); a waiting game whose creator
  left that long ago is cancelled (`aborted`). A game against the computer ends sooner, when
  its person left the site's COMPUTER_GAME_GHOST_SECONDS ago: nobody else waits for it, and
  it leaves the lobby's live list. (A timed game ends by its clocks; a game one player is
  still in ends by a claim of victory, games/services/absence.py.)
- a computer-vs-computer game nobody has watched for UNWATCHED_SECONDS stops the same way.

"When was a computer game last watched" is kept in this process (the Presence rows every
process reads are the same, so each process reaches the same answer; after a restart the
count starts again, which only delays a stop)."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q, QuerySet

from ..domain import clocks, presence
from ..domain.errors import ServiceError
from ..domain.models import BLUE, RED, Game, Presence
from .computer import computer_seat_q, live_computer_games
from .endings import ABANDONED, abort, finish, in_event
from .unit import apply
from .work import UnitOfWork

GHOST_SECONDS = 30 * 60
UNWATCHED_SECONDS = 3 * 60

_watched: dict[int, datetime] = {}  # computer game pk -> when a socket was last seen on it
_lock = threading.Lock()


def sweep(at: datetime | None = None) -> int:
    """End the ghost games and the unwatched computer games; how many it ended."""
    at = at or clocks.now()
    return end_ghosts(at) + stop_unwatched(at)


# ---------------------------------------------------------------- people's games


def computer_ghost_seconds() -> float:
    """How long a game against the computer waits for its person (COMPUTER_GAME_GHOST_SECONDS)."""
    return float(getattr(settings, "COMPUTER_GAME_GHOST_SECONDS", GHOST_SECONDS))


def ghost_candidates(at: datetime) -> QuerySet:
    """Untimed games every person left: both people GHOST_SECONDS ago, or the person
    playing the computer computer_ghost_seconds() ago (computer seats never leave)."""
    cut = at - timedelta(seconds=GHOST_SECONDS)
    short_cut = at - timedelta(seconds=computer_ghost_seconds())
    red_computer, blue_computer = computer_seat_q(RED), computer_seat_q(BLUE)
    people = ~red_computer & ~blue_computer & Q(red_left__lte=cut, blue_left__lte=cut)
    vs_computer = (red_computer & ~blue_computer & Q(blue_left__lte=short_cut)) | (
        blue_computer & ~red_computer & Q(red_left__lte=short_cut)
    )
    playing = Q(status__in=[Game.Status.SETUP, Game.Status.PLAYING], clock_base_ms=None)
    playing &= people | vs_computer
    waiting = Q(status=Game.Status.WAITING) & (Q(red_left__lte=cut) | Q(blue_left__lte=cut))
    return Game.objects.filter(playing | waiting)


def end_ghosts(at: datetime) -> int:
    ids = list(ghost_candidates(at).values_list("public_id", flat=True))
    return sum(end_game(public_id, at, ghost=True) for public_id in ids)


def end_game(public_id: str, at: datetime, ghost: bool) -> bool:
    """Under the row lock, if still so: end the game with no result. True if it did."""
    ended: list[bool] = []

    def step(unit: UnitOfWork) -> None:
        game = unit.game
        if not game.is_active:
            return
        if ghost and not ghost_candidates(at).filter(pk=game.pk).exists():
            return  # somebody came back meanwhile
        if Presence.objects.filter(presence.live(), game=game).exists():
            return  # a socket is open on it after all
        if not ghost and in_event(game):
            return  # an event's game is played out, watched or not
        if game.status == Game.Status.WAITING:
            abort(unit)  # cancelled: nobody ever joined
        else:
            finish(unit, ABANDONED)
        ended.append(True)

    try:
        apply(public_id, step, at, settle=False)
    except ServiceError as exc:
        if exc.code != "not_found":
            raise
    return bool(ended)


# ---------------------------------------------------------------- computers' games


def stop_unwatched(at: datetime) -> int:
    games = list(live_computer_games().values_list("pk", "public_id"))
    watched = set(
        Presence.objects.filter(presence.live(), game_id__in=[pk for pk, _ in games])
        .values_list("game_id", flat=True)
        .distinct()
    )
    cut = at - timedelta(seconds=UNWATCHED_SECONDS)
    stopped = 0
    with _lock:
        live = {pk for pk, _ in games}
        for pk in [pk for pk in _watched if pk not in live]:
            del _watched[pk]  # over: forget it
        for pk, public_id in games:
            if pk in watched:
                _watched[pk] = at
                continue
            last = _watched.setdefault(pk, at)  # first seen unwatched: the count starts
            if last <= cut and end_game(public_id, at, ghost=False):
                _watched.pop(pk, None)
                stopped += 1
    return stopped


def watched_at(pk: int) -> datetime | None:
    return _watched.get(pk)


def forget() -> None:
    """For tests: no computer game was ever seen."""
    with _lock:
        _watched.clear()
