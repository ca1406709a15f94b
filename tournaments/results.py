"""A game of an event ends: its result goes on its pairing, in the transaction that ends the
game (games/services/endings.py calls `game_ended` with the game row locked). The event
itself moves on in the scheduler, after the commit (tournaments/scheduler.py), so the game's
transaction never waits for the event's lock."""

from __future__ import annotations

from django.utils import timezone

from games.domain.models import BLUE, RED, Game

from . import live
from .models import Pairing


def scores_of(game: Game) -> tuple[float, float, str]:
    """(red, blue, note) for an ended game: an aborted one is lost by both."""
    if game.status != Game.Status.FINISHED:
        return 0.0, 0.0, "aborted"
    note = game.termination if game.termination in ("forfeit", "time") else ""
    if game.winner == RED:
        return 1.0, 0.0, note
    if game.winner == BLUE:
        return 0.0, 1.0, note
    return 0.5, 0.5, note


def game_ended(game: Game) -> None:
    if game.pk is None:
        return
    pairing = Pairing.objects.filter(game_id=game.pk, red_score=None).only("pk", "tournament_id")
    found = pairing.first()
    if found is None:
        return
    red, blue, note = scores_of(game)
    Pairing.objects.filter(pk=found.pk).update(
        red_score=red, blue_score=blue, note=note, finished=game.finished or timezone.now()
    )
    live.changed_on_commit(found.tournament_id, wake=True)


def is_event_game(game: Game) -> bool:
    """An event's game: a move that breaks a rule forfeits it (docs/tournaments.md)."""
    return Pairing.objects.filter(game_id=game.pk).exists()
