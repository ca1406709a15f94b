"""Stored codes said in words on the pages: how a game ended."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def termination_words(code: str) -> str:
    """ "no_moves" -> "no legal move left" (as the lobby and the game page say it)."""
    from lobby.views import TERMINATIONS  # (the lobby's words; views import the templates)

    return str(TERMINATIONS.get(code, code.replace("_", " ")))
