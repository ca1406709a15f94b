"""An action's writes in one round trip.

Inside the unit of work (`unit.lock` starts it on the locked game), the rows an action adds
(its Move, its events) wait on the game, and `write` sends them at the commit together with
the game's changed columns: on PostgreSQL as one statement, each insert a data-modifying CTE
of the game's UPDATE (PostgreSQL runs every such CTE, whether the statement reads it or not).
A move was five statements and five round trips through the ORM (insert, insert, update of
every column, and `SET LOCAL synchronous_commit`); it is one, and its SQL is built from the
models' own fields (`get_db_prep_save`, `pre_save`), so it writes what the ORM writes. On
SQLite (no round trips to save) the rows and the columns go through the ORM as before.
Outside a unit, `add` saves a row at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import DEFAULT_DB_ALIAS, connections, models

from ..models import Game


@dataclass
class Pending:
    """The game's columns as loaded, and the rows added since."""

    loaded: dict[str, object]
    rows: list[models.Model] = field(default_factory=list)
    relaxed: bool = False  # the COMMIT need not wait for the disk (unit.commit_without_flush)


KEY = "_pending_writes"  # (in the Game instance's __dict__, as Django keeps its own caches)


def start(game: Game) -> None:
    """From now on `game`'s new rows wait for `write` (called by the unit's commit)."""
    game.__dict__[KEY] = Pending(loaded=column_values(game))


def pending(game: Game) -> Pending | None:
    return game.__dict__.get(KEY)


def add(game: Game, row: models.Model) -> None:
    """A new row of this game's action: queued in a unit of work, saved now otherwise."""
    queue = pending(game)
    if queue is None:
        row.save(force_insert=True)
    else:
        queue.rows.append(row)


def relax_commit(game: Game) -> bool:
    """Let the write say that the COMMIT need not wait for the disk; False outside a unit."""
    queue = pending(game)
    if queue is not None:
        queue.relaxed = True
    return queue is not None


def game_fields() -> list[models.Field]:
    return [f for f in Game._meta.concrete_fields if not f.primary_key]


def column_values(game: Game) -> dict[str, object]:
    return {f.attname: getattr(game, f.attname) for f in game_fields()}


def changed_fields(game: Game, loaded: dict[str, object]) -> list[models.Field]:
    """The columns that differ from their loaded values; JSON ones always count (a dict may
    have been changed in place, and the state changes with nearly every action)."""
    return [
        f
        for f in game_fields()
        if isinstance(f, models.JSONField) or getattr(game, f.attname) != loaded[f.attname]
    ]


def write(game: Game) -> None:
    """The game's changed columns and its queued rows, in one statement on PostgreSQL; a
    game outside a unit is saved whole, as before."""
    queue = game.__dict__.pop(KEY, None)
    if queue is None:
        game.save()
        return
    changed = changed_fields(game, queue.loaded)
    connection = connections[DEFAULT_DB_ALIAS]  # (the wrapper: no proxy lookup per column)
    if connection.vendor != "postgresql":
        for row in queue.rows:
            row.save(force_insert=True)
        if changed:
            game.save(update_fields=[f.name for f in changed])
        return
    sql, params = statement(connection, game, changed, queue.rows, queue.relaxed)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
    # (the unit is over: a later write of this instance saves every column, as outside one)


def statement(
    connection,  # noqa: ANN001 - Django's database wrapper
    game: Game,
    changed: list[models.Field],
    rows: list[models.Model],
    relaxed: bool,
) -> tuple[str, list]:
    """`WITH i0 AS (INSERT ...), ... UPDATE game SET ... WHERE id = %s`: the whole write."""
    ctes, params = [], []
    for i, row in enumerate(rows):
        sql, values = insert(connection, row)
        ctes.append(f"i{i} AS ({sql})")
        params.extend(values)
    q = connection.ops.quote_name
    if relaxed:  # (a CTE that is only read runs if read: the UPDATE reads it below)
        ctes.append("relaxed AS (SELECT set_config('synchronous_commit', 'off', true))")
    changed = changed or [Game._meta.get_field("version")]  # (an UPDATE needs one column)
    sets = ", ".join(f"{q(f.column)} = %s" for f in changed)
    params.extend(f.get_db_prep_save(f.pre_save(game, False), connection) for f in changed)
    update = f"UPDATE {q(Game._meta.db_table)} SET {sets}"
    if relaxed:
        update += " FROM relaxed"
    update += f" WHERE {q(Game._meta.db_table)}.{q(Game._meta.pk.column)} = %s"
    params.append(game.pk)
    prefix = f"WITH {', '.join(ctes)} " if ctes else ""
    return prefix + update, params


def insert(connection, row: models.Model) -> tuple[str, list]:  # noqa: ANN001
    """The INSERT of a new row, as the ORM's: every concrete field but an automatic key."""
    q = connection.ops.quote_name
    fields = [f for f in row._meta.concrete_fields if f is not row._meta.auto_field]
    values = [f.get_db_prep_save(f.pre_save(row, True), connection) for f in fields]
    columns = ", ".join(q(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    return f"INSERT INTO {q(row._meta.db_table)} ({columns}) VALUES ({marks})", values
