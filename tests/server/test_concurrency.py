"""Races on the real PostgreSQL: the row lock lets exactly one of two actions through."""

from __future__ import annotations

import pytest

from games import services
from games.domain.errors import ServiceError
from games.domain.models import Game, Move

from .conftest import make_guest
from .helpers import race, set_up_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("attempt", range(5))
def test_two_simultaneous_moves_exactly_one_applies(attempt):
    gid, red, _ = set_up_game()
    results = race(lambda: services.move(gid, red, 7, 12), lambda: services.move(gid, red, 6, 11))
    errors = [r for r in results if isinstance(r, ServiceError)]
    assert len(errors) == 1 and errors[0].code == "not_your_turn"
    game = Game.objects.get(public_id=gid)
    assert game.ply == 1 and game.version == max(r for r in results if isinstance(r, int))
    assert Move.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("attempt", range(5))
def test_two_people_join_the_last_seat(attempt):
    game = services.create_game(make_guest(), variant="mini", seat=0)
    a, b = make_guest("a"), make_guest("b")
    results = race(
        lambda: services.join_game(game.public_id, a, 1),
        lambda: services.join_game(game.public_id, b),
    )
    errors = [r for r in results if isinstance(r, ServiceError)]
    assert len(errors) == 1 and errors[0].code in ("seat_taken", "game_full")
    game.refresh_from_db()
    assert game.status == "setup" and game.blue_name in ("a", "b")
    assert game.events.filter(kind="seated").count() == 2


def test_one_guest_races_itself_for_both_seats():
    game = services.create_game(make_guest(), variant="classic", seat=0)
    results = race(*(lambda: services.join_game(game.public_id, make_guest("x")) for _ in range(4)))
    assert sum(isinstance(r, int) for r in results) == 1
