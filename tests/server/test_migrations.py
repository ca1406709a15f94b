"""Data migrations: games already under way when the clocks and abandonment arrived."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.core.management import call_command
from django.utils import timezone

from games import services
from games.domain.models import Game
from games.domain.options import ABANDON_SECONDS
from stratego_site import scheduler

from .clocks import game, kinds, rewind, timed_game
from .conftest import make_guest

pytestmark = pytest.mark.django_db

BACKFILL = "games.migrations.0007_backfill_start_times"


def test_games_under_way_get_their_start_times_so_the_never_connected_rule_applies():
    in_setup, _, _ = timed_game(None, ready=None)
    playing, _, _ = timed_game(None)
    waiting = services.create_game(make_guest(), variant="mini").public_id
    Game.objects.update(turn_started=None, setup_started=None)  # as 0005/0006 left them
    scheduler.sweep()
    assert "absent" not in kinds(in_setup) + kinds(playing)  # the rule never applied
    before = timezone.now()
    importlib.import_module(BACKFILL).backfill(apps, None)
    for gid in (in_setup, playing):
        g = game(gid)
        assert g.turn_started >= before and g.setup_started == g.turn_started
    assert (game(waiting).turn_started, game(waiting).setup_started) == (None, None)

    scheduler.sweep()
    assert "absent" not in kinds(in_setup)  # a minute from the migration, not at once
    for gid in (in_setup, playing):
        rewind(gid, ABANDON_SECONDS)
    scheduler.sweep()  # nobody connected to either since: both seats of both games are gone
    for gid in (in_setup, playing):
        assert kinds(gid)[-2:] == ["absent", "absent"]


def test_a_setup_keeps_the_start_time_it_had():
    gid, _, _ = timed_game(None, ready=None)
    started = game(gid).turn_started
    Game.objects.update(setup_started=None)
    importlib.import_module(BACKFILL).backfill(apps, None)
    assert game(gid).setup_started == started == game(gid).turn_started


def test_the_models_and_the_migrations_agree():
    call_command("makemigrations", "games", "--check", "--dry-run", verbosity=0)
