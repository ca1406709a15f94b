"""Stored codes said in words on the pages, in the page's language: how a game ended, a
variant, a computer's level and name, a colour, a result (games/domain/words.py)."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy

from games.domain import words

register = template.Library()
RESULT_WORDS = {
    "won": gettext_lazy("won"),
    "lost": gettext_lazy("lost"),
    "draw": gettext_lazy("draw"),
}


@register.filter
def termination_words(code: str) -> str:
    """ "no_moves" -> "no legal move left" (as the lobby and the game page say it)."""
    from lobby.views import TERMINATIONS  # (the lobby's words; views import the templates)

    return str(TERMINATIONS.get(code, code.replace("_", " ")))


@register.filter
def variant_name(variant: str) -> str:
    """ "classic" -> "klassiek" in a Dutch page."""
    return words.variant_name(variant)


@register.filter
def level_name(level: str) -> str:
    return words.level_name(level)


@register.filter
def shown_name(name: str) -> str:
    """A seat's or an entry's stored name: a computer's ("Computer (hard)") in the page's
    language, a person's as it is."""
    return words.shown_name(name)


@register.filter
def color_name(color: int) -> str:
    return words.color_name(color)


@register.filter
def result_words(result: str) -> str:
    """A profile's result code ("won", "lost", "draw") in the page's language."""
    return str(RESULT_WORDS.get(result, result))
