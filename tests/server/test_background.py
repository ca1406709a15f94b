"""Background work starts with the server process: after a restart with nobody connected, a
game's flag still falls on time."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import services
from games.domain import clocks
from games.domain.models import RED, Game
from stratego_site import scheduler as background

from .conftest import BLUE_SETUP, RED_SETUP, make_guest
from .daphne import Daphne, assert_clean_log
from .helpers import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

LEFT_MS = 3000


def timed_game_in_play() -> str:
    red, blue = make_guest("red"), make_guest("blue")
    gid = services.create_game(red, variant="mini", seat=RED, time_control="5+3").public_id
    services.join_game(gid, blue)
    services.submit_setup(gid, red, RED_SETUP)
    services.submit_setup(gid, blue, BLUE_SETUP)
    services.ready(gid, red)
    services.ready(gid, blue)
    return gid


def test_a_flag_falls_on_time_with_nobody_connected_after_a_restart(tmp_path):
    """A timed game is in play, Red to move with 3 s left, and the server process has just
    restarted: no socket ever reaches it. It ends the game on time (Blue wins), within a
    second of the deadline."""
    gid = timed_game_in_play()
    server = Daphne(tmp_path / "daphne.log").start()
    try:
        now = clocks.now()  # (the clock is set once the process runs: it starts slowly)
        deadline = now + timedelta(milliseconds=LEFT_MS)
        Game.objects.filter(public_id=gid).update(
            red_clock_ms=LEFT_MS, turn_started=now, deadline=deadline
        )
        assert wait_until(
            lambda: Game.objects.get(public_id=gid).status == Game.Status.FINISHED, timeout=30
        )
    finally:
        server.stop()
    game = Game.objects.get(public_id=gid)
    assert (game.termination, game.winner) == ("time", 1)
    assert timedelta(0) <= game.finished - deadline < timedelta(seconds=1)
    assert_clean_log(server.log_text())


def test_the_sweeper_sleeps_until_the_next_deadline_at_most_a_poll():
    now = clocks.now()
    assert background.seconds_to_sleep(None, now) == background.CLOCK_POLL_SECONDS
    soon = background.seconds_to_sleep(now + timedelta(milliseconds=300), now)
    assert 0.3 <= soon < 0.4
    assert background.seconds_to_sleep(now - timedelta(seconds=5), now) > 0
    later = background.seconds_to_sleep(now + timedelta(hours=1), now)
    assert later == background.CLOCK_POLL_SECONDS
