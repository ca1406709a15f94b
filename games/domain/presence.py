"""Who is connected to a game, as the Presence rows say: the reads every layer may use (the
rows are written by the sockets' side, games/transport/presence.py). A row counts while it was seen
within TTL_SECONDS: a process that stopped beating stops counting by then."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Q
from django.utils import timezone

from .models import BLUE, OBSERVER, RED, Presence

HEARTBEAT_SECONDS: float = settings.PRESENCE_HEARTBEAT_SECONDS
TTL_SECONDS: float = settings.PRESENCE_TTL_SECONDS

PLAYERS = (RED, BLUE)


def cutoff() -> datetime:
    """Rows last seen before this belong to a process that stopped beating."""
    return timezone.now() - timedelta(seconds=TTL_SECONDS)


def live() -> Q:
    """The filter for rows that count (as a lookup from Game: `presences__` + this)."""
    return Q(seen__gte=cutoff())


def observers_filter() -> Q:
    """For Count("presences", filter=...): the live observers of a game."""
    return Q(presences__role=OBSERVER, presences__seen__gte=cutoff())


def observers(game_id: int) -> int:
    return Presence.objects.filter(live(), game_id=game_id, role=OBSERVER).count()


def counts(game_id: int) -> dict[int, int]:
    """Live sockets of a game by role (0 Red, 1 Blue, 2 observers), in one query."""
    rows = Presence.objects.filter(live(), game_id=game_id).values("role")
    return dict(rows.annotate(n=Count("pk")).values_list("role", "n"))


def players_connected(game_id: int) -> set[int]:
    """The seats (0, 1) with at least one live socket."""
    roles = Presence.objects.filter(live(), game_id=game_id, role__in=PLAYERS)
    return set(roles.values_list("role", flat=True).distinct())
