"""The one place where a game is locked and written: the row lock (with its live socket
counts, read in the same statement) and the write of a unit of work's changes.

The write sends the game's changed columns and the rows a unit added (its Move, its events)
together at the commit: on PostgreSQL as one statement, each insert a data-modifying CTE of the
game's UPDATE (PostgreSQL runs every such CTE, whether the statement reads it or not), its SQL
built from the models' own fields (`get_db_prep_save`, `pre_save`), so it writes what the ORM
writes. On SQLite (no round trips to save) the rows and the columns go through the ORM.
What this saves is measured in docs/performance.md ("Where a move's time and CPU went").
"""

from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce

from ..domain import presence
from ..domain.models import BLUE, OBSERVER, RED, Game, Presence

LIVE_COUNTS = {RED: "live_red", BLUE: "live_blue", OBSERVER: "live_obs"}


def count_annotations() -> dict[str, Coalesce]:
    """Live sockets of a game by role, as annotations of a Game query: the row lock of an
    action reads them in its one statement (games/services/unit.py), not in one more."""

    def live(role: int) -> Coalesce:
        rows = Presence.objects.filter(presence.live(), game=OuterRef("pk"), role=role)
        rows = rows.order_by().values("game").annotate(n=Count("pk")).values("n")
        return Coalesce(Subquery(rows), 0)

    return {name: live(role) for role, name in LIVE_COUNTS.items()}


_LOCK_SQL: dict[str, str] = {}  # per database vendor


def locked_game_sql(vendor: str, for_update: bool) -> str:
    """The SQL of count_annotations' query, the game row locked, written once: the ORM's
    building and compiling of the three subqueries for every action was costly
    (docs/performance.md, "Figures behind the code"). Parameters: three cutoffs (presence.live) and
    the game's public id."""
    sql = _LOCK_SQL.get(vendor)
    if sql is None:
        connection = connections[DEFAULT_DB_ALIAS]
        q = connection.ops.quote_name
        field = Presence._meta.get_field
        live = (
            f"(SELECT COUNT(*) FROM {q(Presence._meta.db_table)} p"
            f" WHERE p.{q(field('game').column)} = g.{q(Game._meta.pk.column)}"
            f" AND p.{q(field('role').column)} = {{role}} AND p.{q(field('seen').column)} >= %s)"
        )
        columns = ", ".join(f"g.{q(f.column)}" for f in Game._meta.concrete_fields)
        counts = ", ".join(
            f"{live.format(role=role)} AS {name}" for role, name in LIVE_COUNTS.items()
        )
        sql = (
            f"SELECT {columns}, {counts} FROM {q(Game._meta.db_table)} g"
            f" WHERE g.{q(Game._meta.get_field('public_id').column)} = %s"
            + (" FOR UPDATE OF g" if for_update else "")
        )
        _LOCK_SQL[vendor] = sql
    return sql


def locked_game(public_id: str) -> Game | None:
    """The game row, locked (in the caller's transaction), annotated with its live socket
    counts by role as count_annotations would. Read with a plain cursor and made a Game as
    the ORM makes one (`from_db`, each column through its converters): a RawQuerySet
    resolved the model's columns again for every action."""
    connection = connections[DEFAULT_DB_ALIAS]  # (the wrapper: no proxy lookup per column)
    cutoff = connection.ops.adapt_datetimefield_value(presence.cutoff())
    sql = locked_game_sql(connection.vendor, connection.features.has_select_for_update)
    with connection.cursor() as cursor:
        cursor.execute(sql, [cutoff, cutoff, cutoff, public_id])
        row = cursor.fetchone()
    if row is None:
        return None
    fields = Game._meta.concrete_fields
    columns, counts = row[: len(fields)], row[len(fields) :]
    values = [convert(value, f, connection) for value, f in zip(columns, fields, strict=True)]
    game = Game.from_db(connection.alias, [f.attname for f in fields], values)
    for name, count in zip(LIVE_COUNTS.values(), counts, strict=True):
        setattr(game, name, count)
    return game


_CONVERTERS: dict[tuple[str, str], list] = {}  # per (database, field): the ORM's converters


def convert(value: object, field, connection) -> object:  # (a model field)
    """A column's value as the ORM's queries return it (a JSON field's text parsed, say)."""
    key = (connection.alias, field.attname)
    converters = _CONVERTERS.get(key)
    if converters is None:
        column = field.get_col(Game._meta.db_table)
        converters = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        _CONVERTERS[key] = converters
    for converter in converters:
        value = converter(value, field, connection)
    return value


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


def changed_columns(game: Game, loaded: dict[str, object]) -> list[str]:
    """The columns whose values differ from `loaded` (whether there is anything to write)."""
    return [f.attname for f in game_fields() if getattr(game, f.attname) != loaded[f.attname]]


def write(game: Game, loaded: dict[str, object], rows: list[models.Model], relaxed: bool) -> None:
    """The game's columns changed since `loaded` and the new `rows`, in one statement on
    PostgreSQL. `relaxed`: the COMMIT need not wait for the disk (games/services/play.py)."""
    changed = changed_fields(game, loaded)
    connection = connections[DEFAULT_DB_ALIAS]  # (the wrapper: no proxy lookup per column)
    if connection.vendor != "postgresql":
        for row in rows:
            row.save(force_insert=True)
        if changed:
            game.save(update_fields=[f.name for f in changed])
        return
    sql, params = statement(connection, game, changed, rows, relaxed)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def statement(
    connection,  # (Django's database wrapper)
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


def insert(connection, row: models.Model) -> tuple[str, list]:
    """The INSERT of a new row, as the ORM's: every concrete field but an automatic key."""
    q = connection.ops.quote_name
    fields = [f for f in row._meta.concrete_fields if f is not row._meta.auto_field]
    values = [f.get_db_prep_save(f.pre_save(row, True), connection) for f in fields]
    columns = ", ".join(q(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    return f"INSERT INTO {q(row._meta.db_table)} ({columns}) VALUES ({marks})", values
