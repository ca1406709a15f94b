"""A computer seat is a field of the seat: its level, set when the computer sits down, and
filled by the migration for games that were stored before the field existed."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from games.domain.models import Game
from games.services import computer

from .conftest import make_guest

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_computer_seat_holds_its_level_and_a_persons_seat_none():
    game = computer.play_vs_computer(make_guest("ann"), "mini", "random", seat=0)
    assert computer.wait_idle(30)
    game.refresh_from_db()
    assert (game.red_computer, game.blue_computer) == ("", "random")
    assert computer.computer_seats(game) == {1: "random"}
    assert Game.objects.filter(computer.computer_seat_q(1)).filter(pk=game.pk).exists()
    assert not Game.objects.filter(computer.computer_seat_q(0)).filter(pk=game.pk).exists()


def test_the_migration_fills_the_field_from_the_old_session_key():
    game = computer.play_vs_computer(make_guest("bo"), "mini", "hard", seat=1)
    assert computer.wait_idle(30)
    Game.objects.filter(pk=game.pk).update(red_computer="")  # as stored before 0008
    migration = importlib.import_module("games.migrations.0011_computer_seat")
    migration.fill(apps, None)
    game.refresh_from_db()
    assert (game.red_computer, game.blue_computer) == ("hard", "")
