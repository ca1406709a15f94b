"""A game whose time ran out ends, whoever notices first (a socket's timer, a process's
scheduler): both only ask; the unit of work (games/services/unit.py `settle_clock`) is the
one place that ends a game on time."""

from __future__ import annotations

from ..domain import clocks
from ..domain.errors import ServiceError
from ..domain.models import Game
from .unit import apply
from .work import UnitOfWork


def nothing(unit: UnitOfWork) -> None:
    """No change of its own: the unit only settles the clock."""


def _expire(public_id: str) -> tuple[bool, float | None]:
    try:
        result = apply(public_id, nothing)
    except ServiceError as exc:
        if exc.code == "not_found":
            return False, None
        raise
    return result.timed_out, clocks.seconds_left(result.game, clocks.now())


def expire(public_id: str) -> float | None:
    """End the game if its clock or its setup time ran out. Idempotent: of any number of
    calls at once (sockets, processes, the scheduler) exactly one ends the game. Returns the
    seconds until the game's deadline, None when no clock runs (any more)."""
    return _expire(public_id)[1]


def sweep_expired() -> int:
    """End every game whose deadline passed (the scheduler calls this, so a game nobody
    watches ends too). The number of games it ended."""
    due = Game.objects.filter(
        deadline__lte=clocks.now(), status__in=[Game.Status.SETUP, Game.Status.PLAYING]
    ).values_list("public_id", flat=True)
    return sum(_expire(public_id)[0] for public_id in list(due))
