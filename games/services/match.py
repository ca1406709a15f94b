"""A match around the game: abort before it really began, and the rematch after it ended.
Each action is one unit of work (games/services/unit.py); the rules stay in the engine:
nothing here decides a battle or a move. (Draw offers: games/services/play.py.)"""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..domain import options
from ..domain.errors import ServiceError
from ..domain.identity import Identity, role_of
from ..domain.models import BLUE, OBSERVER, RED, Game, GameEvent
from . import computer
from .endings import abort
from .events import emit
from .play import DRAW_OFFER_PLIES, check_draw_offer
from .seats import create_game, join_game
from .unit import apply, run
from .work import UnitOfWork

__all__ = ["DRAW_OFFER_PLIES", "check_draw_offer"]  # (draw offers, for the old callers)

REMATCH_KINDS = ("rematch_offered", "rematch_declined", "rematch")


# ---------------------------------------------------------------- move numbers


def move_number(ply: int) -> int:
    """Full moves, as the move list and the replay count them: plies 2n-1 and 2n are move n."""
    return (ply + 1) // 2


def move_label(ply: int) -> str:
    """'12.' for Red's ply of move 12, '12…' for Blue's (static/ui/reduce.js, moveLabel)."""
    return f"{move_number(ply)}{'.' if ply % 2 == 1 else '…'}"


# ---------------------------------------------------------------- abort


def abortable(game: Game) -> bool:
    """Before each side has made a move: waiting, in setup, or Red's first move made at most."""
    if game.status in (Game.Status.WAITING, Game.Status.SETUP):
        return True
    return game.status == Game.Status.PLAYING and game.ply < 2


def abort_game(public_id: str, ident: Identity | None) -> int:
    """Either player ends the game with no result: status `aborted`, counted nowhere."""

    def action(unit: UnitOfWork, color: int) -> None:
        if not abortable(unit.game):
            raise ServiceError("too_late_to_abort", _("Both sides have moved: resign instead."))
        abort(unit)

    return run(public_id, ident, action)


# ---------------------------------------------------------------- rematch


def rematch_state(game: Game) -> tuple[int | None, str | None]:
    """(the colour whose rematch offer stands, the rematch game's id) from the events."""
    last = GameEvent.objects.filter(game=game, kind__in=REMATCH_KINDS).order_by("-version").first()
    if last is None or last.kind == "rematch_declined":
        return None, None
    if last.kind == "rematch":
        return None, last.red_payload["game"]
    return last.red_payload["color"], None


def finished_game_player(game: Game, ident: Identity | None) -> int:
    color = role_of(game, ident)
    if color == OBSERVER:
        raise ServiceError("not_a_player", _("Observers cannot act in this game."))
    if game.is_active:
        raise ServiceError("game_not_over", _("A rematch is for a game that is over."))
    if not (game.seat_taken(RED) and game.seat_taken(BLUE)):
        raise ServiceError("no_opponent", _("Nobody else played this game."))
    return color


def offer_rematch(public_id: str, ident: Identity | None) -> int:
    """Offer the opponent a rematch; if their offer stands (or they are the computer), this
    accepts it and the new game begins. Returns the game's new version."""

    def step(unit: UnitOfWork) -> None:
        game = unit.game
        color = finished_game_player(game, ident)
        offer, new_id = rematch_state(game)
        if new_id is not None:
            raise ServiceError("rematch_done", _("The rematch has begun already."))
        if offer == color:
            raise ServiceError("rematch_pending", _("Your rematch offer stands already."))
        if offer == 1 - color or (1 - color) in computer.computer_seats(game):
            start_rematch(unit)
        else:
            emit(unit, "rematch_offered", {"color": color})

    return apply(public_id, step, settle=False).version


def answer_rematch(public_id: str, ident: Identity | None, accept: bool) -> int:
    def step(unit: UnitOfWork) -> None:
        game = unit.game
        color = finished_game_player(game, ident)
        offer, new_id = rematch_state(game)
        if new_id is not None:
            raise ServiceError("rematch_done", _("The rematch has begun already."))
        if offer is None:
            raise ServiceError("no_rematch_offer", _("There is no rematch offer to answer."))
        if offer == color:
            raise ServiceError("not_your_rematch_offer", _("You cannot answer your own offer."))
        if accept:
            start_rematch(unit)
        else:
            emit(unit, "rematch_declined", {"color": color})

    return apply(public_id, step, settle=False).version


def seat_identity(game: Game, color: int, new_color: int) -> Identity:
    """Who sits in `color`'s seat, as the identity that takes `new_color` in the rematch."""
    level = computer.seat_level(game, color)
    if level is not None:  # a computer's identity names its seat
        return computer.computer_identity(level, new_color)
    prefix = "red" if color == RED else "blue"
    return Identity(
        user_id=getattr(game, f"{prefix}_user_id"),
        session_key=getattr(game, f"{prefix}_session") or None,
        name=game.seat_name(color),
    )


def start_rematch(unit: UnitOfWork) -> Game:
    """The new game: colours swapped, the same variant, rules, clock and privacy; both seated
    (so its setup begins). The old game gets the event `rematch` with the new id, for all."""
    game = unit.game
    control = options.stored_time_control(game.clock_base_ms, game.clock_increment_ms)
    rules = dict(game.state.get("rules") or {})
    new = create_game(
        seat_identity(game, BLUE, RED),
        variant=game.variant,
        seat=RED,
        private=game.private,
        time_control=control.id if control else None,
        rules=rules or None,
    )
    join_game(new.public_id, seat_identity(game, RED, BLUE), BLUE)
    emit(unit, "rematch", {"game": new.public_id})
    return new


def rematch_of(game: Game) -> str | None:
    return rematch_state(game)[1]
