"""The play phase: moves, resignation, draws."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .. import engine
from ..domain import clocks
from ..domain.errors import ServiceError
from ..domain.identity import Identity
from ..domain.models import Game, GameEvent, Move
from .endings import abort, finish, finish_by_engine, in_event
from .events import emit
from .unit import run
from .work import UnitOfWork

# A player may offer a draw again only after this many plies (both sides' moves) since
# their last offer, so offers cannot be used to harass.
DRAW_OFFER_PLIES = 10

# Refusals that say the move came at the wrong moment, not that it broke a rule.
NOT_IRREGULAR = frozenset({"not_playing", "game_over", "not_your_turn"})


def require_playing(game: Game) -> None:
    if game.status != Game.Status.PLAYING:
        raise ServiceError("not_playing", _("The game has not started yet."))


def record_move(unit: UnitOfWork, result: engine.MoveResult) -> None:
    public = result.to_public_dict(unit.eg.variant)
    battle = result.battle
    move = Move(
        game=unit.game,
        ply=result.ply,
        from_square=result.move.src,
        to_square=result.move.dst,
        notation=public["notation"],
        color=result.color,
        attacker_rank=result.rank,
        defender_rank=battle.defender if battle else None,
        battle_result=battle.result if battle else "",
    )
    unit.add(move)
    unit.game.ply = result.ply
    emit(unit, "move", public)


def move(public_id: str, ident: Identity | None, frm: int, to: int) -> int:
    at = clocks.now()  # when the move arrived, before it waits for the row lock

    def action(unit: UnitOfWork, color: int) -> None:
        game, eg = unit.game, unit.eg
        require_playing(game)
        try:
            result = eg.push(engine.Move(frm, to), color)
        except engine.IllegalMoveError as exc:
            if exc.code in NOT_IRREGULAR or not in_event(game):
                raise
            finish(unit, "forfeit", 1 - color)  # an event's game: the irregularity loses it
            return
        game.draw_offer = None
        if eg.outcome is None:
            clocks.after_move(game, color, at)
            # A move that leaves the game going commits without waiting for the disk: the
            # trade is decided in docs/performance.md ("The durability of a move").
            unit.relaxed = True
        else:  # the move that ends the game: its thinking is charged, no increment
            clocks.stop(game, at)  # (while the ply still says whose clock runs)
        record_move(unit, result)
        if eg.outcome is not None:
            finish_by_engine(unit)

    return run(public_id, ident, action, at)


def resign(public_id: str, ident: Identity | None) -> int:
    def action(unit: UnitOfWork, color: int) -> None:
        if unit.game.status == Game.Status.WAITING:
            abort(unit)
            return
        unit.eg.resign(color)
        finish_by_engine(unit)

    return run(public_id, ident, action)


def offer_draw(public_id: str, ident: Identity | None) -> int:
    def action(unit: UnitOfWork, color: int) -> None:
        game = unit.game
        require_playing(game)
        if game.draw_offer == 1 - color:
            finish(unit, "agreed_draw")
            return
        check_draw_offer(game, color)  # not again within a few moves
        game.draw_offer = color
        emit(unit, "draw_offered", {"color": color})

    return run(public_id, ident, action)


def check_draw_offer(game: Game, color: int) -> None:
    """Refuse a new draw offer by `color` within DRAW_OFFER_PLIES plies of its last one."""
    last = (
        GameEvent.objects.filter(game=game, kind="draw_offered", red_payload__color=color)
        .order_by("-version")
        .first()
    )
    if last is None:
        return
    since = GameEvent.objects.filter(game=game, kind="move", version__gt=last.version).count()
    if since < DRAW_OFFER_PLIES:
        wait = DRAW_OFFER_PLIES - since
        raise ServiceError(
            "draw_offer_too_soon",
            _("You may offer a draw again after %(wait)s more moves.") % {"wait": wait},
        )


def answer_draw(public_id: str, ident: Identity | None, accept: bool) -> int:
    def action(unit: UnitOfWork, color: int) -> None:
        game = unit.game
        require_playing(game)
        if game.draw_offer is None:
            raise ServiceError("no_draw_offer", _("There is no draw offer to answer."))
        if game.draw_offer == color:
            raise ServiceError("not_your_draw_offer", _("You cannot answer your own offer."))
        if accept:
            finish(unit, "agreed_draw")
            return
        game.draw_offer = None
        emit(unit, "draw_declined", {"color": color})

    return run(public_id, ident, action)
