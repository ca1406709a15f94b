"""`{% tournaments_section %}` for the lobby and `{% player_events person %}` for a profile:
the hooks other pages include, so they need no view of their own changed; and `note_label`,
a pairing's note (a code) as the pages show it."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy

from .. import pages
from ..models import Entrant, Pairing

register = template.Library()

# A pairing's note (tournaments/rounds.py, results.py) in the page's language.
NOTE_LABELS = {
    "forfeit": gettext_lazy("forfeit"),
    "withdrawn": gettext_lazy("withdrawn"),
    "refused": gettext_lazy("refused"),
    "aborted": gettext_lazy("aborted"),
    "absent": gettext_lazy("absent"),
    "bye": gettext_lazy("bye"),
}


@register.filter
def note_label(note: str) -> str:
    return str(NOTE_LABELS.get(note, note))


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
