"""The unit of work every action on a game goes through: lock the game row, settle its
clock, load the engine from `state`, let the action decide, save the state, write the
numbered events and publish them (and nudge the lobby, wake a computer) after the commit.
Any refusal raises ServiceError and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.db import connection, transaction

from .. import clocks, engine, snapshots
from ..broadcast import nudge_lobby_on_commit
from ..errors import ServiceError
from ..identity import Identity, role_of
from ..models import BLUE, OBSERVER, RED, Game
from . import rows
from .endings import abort, finish
from .events import publish

COLOR_NAMES = {RED: "Red", BLUE: "Blue"}


def engine_error(exc: Exception) -> ServiceError:
    code = getattr(exc, "code", None) or "illegal"
    message = getattr(exc, "message", None) or str(exc)
    return ServiceError(str(code), str(message))


def lock(public_id: str) -> Game:
    """The game row, locked, with its live socket counts (for the frames it will publish);
    the rows its action adds wait for the commit (games/services/rows.py)."""
    game = snapshots.locked_game(public_id)
    if game is None:
        raise ServiceError("not_found", "There is no such game.")
    rows.start(game)
    return game


def load(game: Game) -> engine.Game:
    return engine.Game.from_dict(game.state)


def player_color(game: Game, ident: Identity | None) -> int:
    role = role_of(game, ident)
    if role == OBSERVER:
        raise ServiceError("not_a_player", "Observers cannot act in this game.")
    if not game.is_active:
        raise ServiceError("game_not_active", "This game is over.")
    return role


def commit(game: Game, eg: engine.Game | None = None, lobby: bool = False) -> None:
    if eg is not None:
        game.state = eg.to_dict()
    rows.write(game)
    publish(game, eg)
    if lobby and not game.private:
        nudge_lobby_on_commit()
    wake_computers_on_commit(game)


def commit_without_flush(game: Game) -> None:
    """Let this transaction's COMMIT return before its WAL reaches the disk (PostgreSQL's
    synchronous_commit off, for this transaction only): about 3.5 of a move's ~4 ms of
    commit on these machines (fdatasync). The trade, decided in docs/performance.md ("The
    durability of a move"): a crash of PostgreSQL or of its machine can lose the moves
    committed in the last ~0.6 s (3 x wal_writer_delay), all of their transaction or none of
    it (never a torn game: the database comes back consistent, as of a moment earlier, and
    sockets resync to it). Only moves that leave the game going use it; a game's end, its
    result and ratings, and every other action commit durably. SQLite: nothing to do. In a
    unit of work, the game's write says it (no statement of its own)."""
    if connection.vendor == "postgresql" and not rows.relax_commit(game):
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


def computer_level(game: Game, color: int) -> str:
    """The level of the computer in `color`'s seat; "" for a person (or nobody)."""
    return game.red_computer if color == RED else game.blue_computer


# games/computer.py registers its `kick` here (it imports this module, not the other way).
computer_waker: Callable[[str], None] | None = None


def wake_computers_on_commit(game: Game) -> None:
    """A computer seated in this game gets its turn once the change is committed."""
    waker = computer_waker
    if waker is not None and (game.red_computer or game.blue_computer):
        public_id = game.public_id
        transaction.on_commit(lambda: waker(public_id))


Action = Callable[[Game, int, engine.Game], bool]


def run(public_id: str, ident: Identity | None, action: Action, at: datetime | None = None):
    """Lock, check the clock, check the seat, run the engine action, save. Returns the new
    version. `at` is when the action arrived (default: now, before waiting for the row lock):
    the clock is read then, so an action in time stays in time however long it queued for
    the lock. When the clock ran out first, the game ends on time (that is committed) and
    the action is refused with `time_out` instead. The action returns whether the lobby
    must hear of the change."""
    at = at or clocks.now()
    with transaction.atomic():
        game = lock(public_id)
        if not settle_clock(game, at):
            color = player_color(game, ident)
            eg = load(game)
            try:
                lobby = action(game, color, eg)
            except engine.EngineError as exc:
                raise engine_error(exc) from exc
            commit(game, eg, lobby=lobby)
            return game.version
    raise time_out_error(game, ident)


def settle_clock(game: Game, at: datetime) -> bool:
    """Under the row lock: if the game's time ran out, end it (and save). In play the side to
    move loses on time; in setup a player who is not ready loses, and if neither is, the game
    is aborted. True if it ended the game."""
    if not clocks.expired(game, at):
        return False
    eg = load(game)
    if game.status == Game.Status.PLAYING:
        eg.end(engine.Outcome(winner=1 - eg.turn, termination="time"))
        finish(game, eg, at)
    elif any(eg.ready):
        eg.end(engine.Outcome(winner=eg.ready.index(True), termination="time"))
        finish(game, eg, at)
    else:
        abort(game, at)
    commit(game, eg, lobby=True)
    return True


def time_out_error(game: Game, ident: Identity | None) -> ServiceError:
    """The refusal of an action that found the game's time run out (and ended it)."""
    if game.status == Game.Status.ABORTED:
        message = "The setup time ran out before both players were ready: the game is aborted."
    elif role_of(game, ident) == 1 - game.winner:
        message = "Your time ran out before this arrived: you lost on time."
    else:
        message = f"{COLOR_NAMES[1 - game.winner]}'s time ran out: the game is over."
    return ServiceError("time_out", message)
