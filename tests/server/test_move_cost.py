"""A move's database work is a small fixed number of statements, however many sockets watch."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services

from .conftest import SHORT_GAME
from .helpers import set_up_game

pytestmark = pytest.mark.django_db(transaction=True)

# BEGIN, lock the row (with its sockets counted by role, for the `game` object of the pushed
# frames, built once for all), write the Move and the event, save the game, COMMIT. Nothing
# per socket: sockets forward the pushed frames (tests/server/test_push.py).
MAX_MOVE_STATEMENTS = 6


def test_a_move_costs_a_fixed_number_of_statements():
    gid, red, blue = set_up_game()
    counts = []
    for color, frm, to in SHORT_GAME[:4]:
        with CaptureQueriesContext(connection) as queries:
            services.move(gid, red if color == 0 else blue, frm, to)
        counts.append(len(queries))
    assert max(counts) <= MAX_MOVE_STATEMENTS, counts
