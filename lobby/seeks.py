"""The open "Play now" seeks as the lobby lists them: whoever waits for a game right now."""

from __future__ import annotations

from datetime import timedelta

from django.http import HttpRequest
from django.utils import timezone

from players.models import Seek
from players.pairing import STALE_SECONDS

MAX_LISTED = 20


def open_seeks(request: HttpRequest, me: str) -> list[dict]:
    """Unpaired seeks whose page is still open, the newest first; a guest has no rating."""
    fresh = timezone.now() - timedelta(seconds=STALE_SECONDS)
    rows = Seek.objects.filter(game=None, seen__gte=fresh).order_by("-created")[:MAX_LISTED]
    return [
        {
            "name": seek.name,
            "variant": seek.variant,
            "time_control": seek.time_control or "untimed",
            "rating": round(seek.rating) if seek.user_id else None,
            "mine": bool(me) and seek.name == me,
        }
        for seek in rows
    ]
