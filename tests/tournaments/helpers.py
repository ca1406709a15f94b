"""Accounts, events and game endings for the tournaments' tests."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from games import services
from games.domain.identity import Identity
from games.domain.models import BLUE, RED, Game
from games.services.computer import computer_identity
from tournaments import events
from tournaments.models import Pairing, Tournament


def account(name: str, staff: bool = False):  # noqa: ANN201 - a User
    return get_user_model().objects.create_user(name, password="pw-for-tests-1", is_staff=staff)


def event(creator, **chosen) -> Tournament:  # noqa: ANN001
    chosen.setdefault("variant", "mini")
    chosen.setdefault("starts_at", timezone.now() + timedelta(minutes=5))
    chosen.setdefault("name", "Friday Swiss")
    return events.create(creator, events.Settings(**chosen))


def seat_identity(game: Game, color: int) -> Identity:
    computer = game.seat_computer(color)
    if computer:
        return computer_identity(computer, color)
    user_id = game.red_user_id if color == RED else game.blue_user_id
    return Identity(user_id, None, game.seat_name(color))


def lose(pairing: Pairing, color: int) -> None:
    """`color` resigns the pairing's game."""
    services.resign(pairing.game.public_id, seat_identity(pairing.game, color))


def play_round_out(tournament: Tournament, number: int, loser=BLUE) -> None:  # noqa: ANN001
    for pairing in tournament.pairings.filter(round=number, red_score=None):
        lose(pairing, loser)
