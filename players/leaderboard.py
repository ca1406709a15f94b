"""The leaderboard: the active rated players of a variant, best first."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import QuerySet
from django.utils import timezone

from .models import Rating

ACTIVE_DAYS = 90  # a rating not played for longer leaves the board (it comes back with a game)
BOARD_SIZE = 100


def leaderboard(variant: str) -> QuerySet[Rating]:
    since = timezone.now() - timedelta(days=ACTIVE_DAYS)
    return (
        Rating.objects.filter(variant=variant, games__gt=0, last_played__gte=since)
        .exclude(user__player_status__banned_from_rated=True)
        .select_related("user")
        .order_by("-rating", "deviation", "id")[:BOARD_SIZE]
    )
