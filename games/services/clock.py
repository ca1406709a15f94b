"""A game whose time ran out ends, whoever notices first (a socket, a process, the sweep)."""

from __future__ import annotations

from django.db import transaction

from .. import clocks
from ..models import Game
from .unit import settle_clock


def expire(public_id: str) -> float | None:
    """End the game if its clock or its setup time ran out. Idempotent: of any number of
    calls at once (sockets, processes, the heartbeat sweep) exactly one ends the game.
    Returns the seconds until the game's deadline, None when no clock runs (any more)."""
    return _expire(public_id)[1]


def _expire(public_id: str) -> tuple[bool, float | None]:
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(public_id=public_id).first()
        if game is None:
            return False, None
        at = clocks.now()
        ended = settle_clock(game, at)
        return ended, clocks.seconds_left(game, at)


def sweep_expired() -> int:
    """End every game whose deadline passed (the heartbeat calls this, so a game nobody
    watches ends too). The number of games it ended."""
    due = Game.objects.filter(
        deadline__lte=clocks.now(), status__in=[Game.Status.SETUP, Game.Status.PLAYING]
    ).values_list("public_id", flat=True)
    return sum(_expire(public_id)[0] for public_id in list(due))
