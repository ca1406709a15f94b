"""The unit of work: the only way a game changes.

`apply` locks the game row (games/services/repository.py), settles its clock, lets a step
decide (the engine rules, the step records what it decided on the `UnitOfWork`), writes the game
and the rows the step added, and after the commit sends `game_changed` with the `Result`:
the game, the engine's game and the events, as values. Any refusal raises ServiceError and
changes nothing. `run` is `apply` for a player's action.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from .. import engine
from ..domain import clocks
from ..domain.errors import ServiceError
from ..domain.identity import Identity, role_of
from ..domain.models import BLUE, OBSERVER, RED, Game
from . import repository
from .endings import abort, finish
from .signals import game_changed
from .work import Result, Step, UnitOfWork

logger = logging.getLogger(__name__)

COLOR_NAMES = {RED: gettext_noop("Red"), BLUE: gettext_noop("Blue")}


# The engine's refusals, by code, in words a translation can carry: the engine is pure Python
# (no Django), so its messages are English; `engine_error` puts them in the active language
# where the catalogue has these words (tests/server/test_engine_messages.py: every engine code
# is here). English keeps the engine's own, more precise message.
ENGINE_MESSAGES = {
    "not_a_player": gettext_noop("Only the two players set up pieces."),
    "not_setup_phase": gettext_noop("The setup phase is over."),
    "already_ready": gettext_noop("You are ready already; your setup is locked."),
    "off_board": gettext_noop("That square is off the board."),
    "outside_setup_area": gettext_noop("That square is outside your setup area."),
    "lake": gettext_noop("No piece may stand in or enter a lake."),
    "occupied": gettext_noop("That square already holds a piece."),
    "none_left": gettext_noop("All your pieces of that rank are already placed."),
    "empty_square": gettext_noop("There is no piece of yours on that square."),
    "incomplete": gettext_noop("The setup is not complete: place all your pieces."),
    "flag_not_on_back_row": gettext_noop("Leave a square on your back row for the flag."),
    "unknown_rank": gettext_noop("There is no such rank."),
    "not_playing": gettext_noop("The game has not started yet."),
    "game_over": gettext_noop("This game is over."),
    "not_your_turn": gettext_noop("It is not your turn."),
    "not_your_piece": gettext_noop("That is not your piece."),
    "immovable": gettext_noop("That piece never moves."),
    "same_square": gettext_noop("A piece must move to another square."),
    "own_piece": gettext_noop("That square holds one of your own pieces."),
    "not_straight": gettext_noop("A piece moves in a straight line."),
    "too_far": gettext_noop("That piece cannot move so far."),
    "path_blocked": gettext_noop("A scout cannot cross a lake or jump over pieces."),
    "two_squares": gettext_noop("The two-squares rule forbids this move."),
    "more_squares": gettext_noop("The more-squares rule forbids this move."),
    "return_too_soon": gettext_noop("The piece may not return there so soon."),
    "illegal": gettext_noop("That is not allowed."),
}


def engine_error(exc: Exception) -> ServiceError:
    code = str(getattr(exc, "code", None) or "illegal")
    message = str(getattr(exc, "message", None) or exc)
    words = ENGINE_MESSAGES.get(code)
    if words is not None and _(words) != words:  # the active language has these words
        message = _(words)
    return ServiceError(code, message)


def lock(public_id: str) -> Game:
    """The game row, locked, with its live socket counts (for the frames it will publish)."""
    game = repository.locked_game(public_id)
    if game is None:
        raise ServiceError("not_found", _("There is no such game."))
    return game


def apply(public_id: str, step: Step, at: datetime | None = None, settle: bool = True) -> Result:
    """Lock the game, end it first if its time ran out (`settle`; then `step` does not run),
    let `step` decide, write, and publish after the commit. `at` is when the change arrived
    (`run`: before waiting for the row lock, so an action in time stays in time however long
    it queued for the lock; default: once the row is locked)."""
    with transaction.atomic():
        game = lock(public_id)
        unit = UnitOfWork(game, at or clocks.now(), repository.column_values(game))
        return run_unit(unit, step, settle)


def apply_new(game: Game, step: Step) -> Result:
    """As `apply`, for a game this transaction has just created (nobody else sees it yet)."""
    game.save()
    unit = UnitOfWork(game, clocks.now(), repository.column_values(game))
    return run_unit(unit, step, settle=False)


def run_unit(unit: UnitOfWork, step: Step, settle: bool) -> Result:
    if not (settle and settle_clock(unit)):
        step(unit)
    return save(unit)


def save(unit: UnitOfWork) -> Result:
    """Write what the unit decided (nothing if it decided nothing) and, after the commit,
    say what changed (games/reactions.py: the sockets, the lobby, a computer's turn)."""
    game = unit.game
    if unit._eg is not None:
        game.state = unit._eg.to_dict()
    result = Result(game, unit._eg, tuple(unit.events), unit.lobby, unit.timed_out)
    if not (unit.rows or unit.events or unit._eg or repository.changed_columns(game, unit.loaded)):
        return result
    repository.write(game, unit.loaded, unit.rows, unit.relaxed)
    transaction.on_commit(lambda: announce(result))
    return result


def announce(result: Result) -> None:
    for receiver, answer in game_changed.send_robust(sender=Game, result=result):
        if isinstance(answer, Exception):  # the commit stands; sockets catch up on their own
            logger.warning("after %s: %s failed: %r", result.game.public_id, receiver, answer)


def settle_clock(unit: UnitOfWork) -> bool:
    """If the game's time ran out, end it: in play the side to move loses on time; in setup
    a player who is not ready loses, and if neither is, the game is aborted. True if ended."""
    game = unit.game
    if not clocks.expired(game, unit.at):
        return False
    eg = unit.eg
    if game.status == Game.Status.PLAYING:
        finish(unit, "time", winner=1 - eg.turn)
    elif any(eg.ready):
        finish(unit, "time", winner=eg.ready.index(True))
    else:
        abort(unit)
    unit.timed_out = True
    return True


# ---------------------------------------------------------------- a player's action


def player_color(game: Game, ident: Identity | None) -> int:
    role = role_of(game, ident)
    if role == OBSERVER:
        raise ServiceError("not_a_player", _("Observers cannot act in this game."))
    if not game.is_active:
        raise ServiceError("game_not_active", _("This game is over."))
    return role


def computer_level(game: Game, color: int) -> str:
    """The level of the computer in `color`'s seat; "" for a person (or nobody)."""
    return game.red_computer if color == RED else game.blue_computer


Action = Callable[[UnitOfWork, int], None]  # (the unit, the acting player's colour)


def run(public_id: str, ident: Identity | None, action: Action, at: datetime | None = None) -> int:
    """A player's action through `apply`: the seat checked, engine errors made ServiceErrors.
    When the clock ran out first, the game ends on time (that is committed) and the action
    is refused with `time_out`. Returns the game's new version."""

    def step(unit: UnitOfWork) -> None:
        color = player_color(unit.game, ident)
        try:
            action(unit, color)
        except engine.EngineError as exc:
            raise engine_error(exc) from exc

    result = apply(public_id, step, at or clocks.now())
    if result.timed_out:
        raise time_out_error(result.game, ident)
    return result.version


def time_out_error(game: Game, ident: Identity | None) -> ServiceError:
    """The refusal of an action that found the game's time run out (and ended it)."""
    if game.status == Game.Status.ABORTED:
        message = _("The setup time ran out before both players were ready: the game is aborted.")
    elif role_of(game, ident) == 1 - game.winner:
        message = _("Your time ran out before this arrived: you lost on time.")
    else:
        color = _(COLOR_NAMES[1 - game.winner])
        message = _("%(color)s's time ran out: the game is over.") % {"color": color}
    return ServiceError("time_out", message)
