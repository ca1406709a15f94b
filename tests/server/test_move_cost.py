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
# frames, built once for all), one write (on PostgreSQL the Move, the event and the game's
# changed columns in one statement, which also says that a move leaving the game going need
# not wait for the disk at its COMMIT: games/services/repository.py), COMMIT. SQLite writes row by
# row. Nothing per socket: sockets forward the pushed frames (tests/server/test_push.py).
MAX_MOVE_STATEMENTS = 4 if connection.vendor == "postgresql" else 6


def test_a_move_costs_a_fixed_number_of_statements():
    gid, red, blue = set_up_game()
    counts = []
    for color, frm, to in SHORT_GAME[:4]:
        with CaptureQueriesContext(connection) as queries:
            services.move(gid, red if color == 0 else blue, frm, to)
        counts.append(len(queries))
    assert max(counts) <= MAX_MOVE_STATEMENTS, counts


def test_only_a_move_that_leaves_the_game_going_commits_without_flush():
    """The durability trade of docs/performance.md: the move that ends the game (its result,
    the ratings) commits durably, the others do not wait for the disk (PostgreSQL only)."""
    gid, red, blue = set_up_game()
    relaxed = []
    for color, frm, to in SHORT_GAME:
        with CaptureQueriesContext(connection) as queries:
            services.move(gid, red if color == 0 else blue, frm, to)
        relaxed.append(any("synchronous_commit" in q["sql"] for q in queries.captured_queries))
    postgres = connection.vendor == "postgresql"
    assert relaxed == [postgres] * (len(SHORT_GAME) - 1) + [False]


def test_the_locked_row_counts_live_sockets_as_the_orm_query_does():
    """games/services/repository.py writes the lock's SQL by hand (the ORM's version cost
    ~4 ms of CPU per action): its counts must be the ORM's, stale rows left out, on this
    database."""
    from datetime import timedelta

    from django.db import transaction
    from django.utils import timezone

    from games.domain.models import Game, Presence
    from games.services import repository, snapshots

    gid, red, blue = set_up_game()
    game = Game.objects.get(public_id=gid)
    other = Game.objects.exclude(pk=game.pk).first()
    rows = [(0, 0), (1, 0), (2, 0), (2, 0), (2, 0), (2, 10_000), (1, 10_000)]  # (role, age s)
    for i, (role, age) in enumerate(rows):
        Presence.objects.create(game=game, channel_name=f"t!{i}", role=role,
                                seen=timezone.now() - timedelta(seconds=age))  # fmt: skip
    if other is not None:  # another game's sockets count for that game only
        Presence.objects.create(game=other, channel_name="t!other", role=2)
    orm = Game.objects.annotate(**repository.count_annotations()).get(public_id=gid)
    with transaction.atomic():
        raw = repository.locked_game(gid)
    expected = {name: getattr(orm, name) for name in repository.LIVE_COUNTS.values()}
    assert (
        {name: getattr(raw, name) for name in expected}
        == expected
        == {"live_red": 1, "live_blue": 1, "live_obs": 3}
    )
    assert snapshots.socket_counts(raw) == {0: 1, 1: 1, 2: 3}
    assert raw.state == game.state and raw.version == game.version and raw.pk == game.pk
    with transaction.atomic():
        assert repository.locked_game("nosuchgame") is None


def test_the_statements_of_a_move_are_prepared_once_on_postgresql():
    """settings.py: server-side binding, and psycopg prepares a statement run five times on a
    connection, so PostgreSQL stops parsing and planning the lock and the write of each move."""
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    gid, red, blue = set_up_game()
    for color, frm, to in SHORT_GAME[:-1]:  # (the last move ends the game: not the same write)
        services.move(gid, red if color == 0 else blue, frm, to)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("FOR UPDATE" in sql for sql in prepared), prepared
    assert any(sql.startswith("WITH i0 AS (INSERT") for sql in prepared), prepared
