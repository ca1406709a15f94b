"""Timed and abandoned games for the tests: made through the services, and moved in time by
writing their timestamps into the past (never by sleeping)."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import F

from games import services
from games.domain.identity import Identity
from games.domain.models import Game

from .conftest import BLUE_SETUP, RED_SETUP, make_guest

TIMESTAMPS = ("turn_started", "setup_started", "deadline", "red_left", "blue_left")


def timed_game(
    time_control: str | None = "5+3", ready: tuple[bool, bool] | None = (True, True)
) -> tuple[str, Identity, Identity]:
    """A mini game with both seats taken; with `ready`, both setups submitted and those
    players ready (both: the game is playing, Red to move)."""
    red, blue = make_guest("red"), make_guest("blue")
    game = services.create_game(red, variant="mini", seat=0, time_control=time_control)
    services.join_game(game.public_id, blue)
    if ready is not None:
        for ident, setup, is_ready in ((red, RED_SETUP, ready[0]), (blue, BLUE_SETUP, ready[1])):
            services.submit_setup(game.public_id, ident, setup)
            if is_ready:
                services.ready(game.public_id, ident)
    return game.public_id, red, blue


def rewind(public_id: str, seconds: float) -> None:
    """As if `seconds` had passed: every clock and absence timestamp of the game moves back."""
    delta = timedelta(seconds=seconds)
    Game.objects.filter(public_id=public_id).update(
        **{name: F(name) - delta for name in TIMESTAMPS}
    )


def game(public_id: str) -> Game:
    return Game.objects.get(public_id=public_id)


def kinds(public_id: str) -> list[str]:
    return list(game(public_id).events.order_by("version").values_list("kind", flat=True))
