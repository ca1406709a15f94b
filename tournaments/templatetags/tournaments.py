"""`{% tournaments_section %}` for the lobby and `{% player_events person %}` for a profile:
the hooks other pages include, so they need no view of their own changed."""

from __future__ import annotations

from django import template

from .. import pages
from ..models import Entrant, Pairing

register = template.Library()


@register.inclusion_tag("tournaments/_lobby_section.html")
def tournaments_section() -> dict:
    found = pages.lists()
    return {"items": (found["running"] + found["upcoming"])[:6]}


@register.inclusion_tag("tournaments/_profile_events.html")
def player_events(person) -> dict:  # noqa: ANN001 - a User
    entries = (
        Entrant.objects.filter(user=person, tournament__private=False)
        .exclude(tournament__status="cancelled")
        .select_related("tournament")
        .order_by("-tournament__starts_at")[:30]
    )
    return {"entries": list(entries)}


@register.inclusion_tag("tournaments/_game_event.html")
def event_of_game(game) -> dict:  # noqa: ANN001 - a games.Game
    """On an event's game page: which event and round, and the way back to it."""
    pairing = Pairing.objects.filter(game_id=game.pk).select_related("tournament").first()
    return {"pairing": pairing}
