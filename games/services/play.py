"""The play phase: moves, resignation, draws."""

from __future__ import annotations

from datetime import datetime

from .. import clocks, engine, match
from ..errors import ServiceError
from ..identity import Identity
from ..models import Game, Move
from . import rows
from .endings import abort, finish, in_event
from .events import emit
from .unit import commit_without_flush, run

# Refusals that say the move came at the wrong moment, not that it broke a rule.
NOT_IRREGULAR = frozenset({"not_playing", "game_over", "not_your_turn"})


def require_playing(game: Game) -> None:
    if game.status != Game.Status.PLAYING:
        raise ServiceError("not_playing", "The game has not started yet.")


def record_move(game: Game, eg: engine.Game, result: engine.MoveResult) -> None:
    public = result.to_public_dict(eg.variant)
    battle = result.battle
    move = Move(
        game=game,
        ply=result.ply,
        from_square=result.move.src,
        to_square=result.move.dst,
        notation=public["notation"],
        color=result.color,
        attacker_rank=result.rank,
        defender_rank=battle.defender if battle else None,
        battle_result=battle.result if battle else "",
    )
    rows.add(game, move)
    game.ply = result.ply
    emit(game, "move", public)


def move(public_id: str, ident: Identity | None, frm: int, to: int) -> int:
    at = clocks.now()  # when the move arrived, before it waits for the row lock

    def action(game: Game, color: int, eg: engine.Game) -> bool:
        require_playing(game)
        try:
            result = eg.push(engine.Move(frm, to), color)
        except engine.IllegalMoveError as exc:
            if exc.code in NOT_IRREGULAR or not in_event(game):
                raise
            eg.end(engine.Outcome(winner=1 - color, termination="forfeit"))
            finish(game, eg, at)
            return True
        game.draw_offer = None
        if eg.outcome is None:
            clocks.after_move(game, color, at)
            commit_without_flush(game)  # (the game goes on: see its doc for the trade)
        else:  # the move that ends the game: its thinking is charged, no increment
            clocks.stop(game, at)  # (while the ply still says whose clock runs)
        record_move(game, eg, result)
        if eg.outcome is not None:
            finish(game, eg, at)
            return True
        return False

    return run(public_id, ident, action, at)


def resign(public_id: str, ident: Identity | None) -> int:
    at = clocks.now()

    def action(game: Game, color: int, eg: engine.Game) -> bool:
        if game.status == Game.Status.WAITING:
            abort(game, at)
            return True
        eg.resign(color)
        finish(game, eg, at)
        return True

    return run(public_id, ident, action, at)


def offer_draw(public_id: str, ident: Identity | None) -> int:
    at = clocks.now()

    def action(game: Game, color: int, eg: engine.Game) -> bool:
        require_playing(game)
        if game.draw_offer == 1 - color:
            return agree_draw(game, eg, at)
        match.check_draw_offer(game, color)  # not again within a few moves (issue 12)
        game.draw_offer = color
        emit(game, "draw_offered", {"color": color})
        return False

    return run(public_id, ident, action, at)


def agree_draw(game: Game, eg: engine.Game, at: datetime) -> bool:
    eg.end(engine.Outcome(winner=None, termination="agreed_draw"))
    finish(game, eg, at)
    return True


def answer_draw(public_id: str, ident: Identity | None, accept: bool) -> int:
    at = clocks.now()

    def action(game: Game, color: int, eg: engine.Game) -> bool:
        require_playing(game)
        if game.draw_offer is None:
            raise ServiceError("no_draw_offer", "There is no draw offer to answer.")
        if game.draw_offer == color:
            raise ServiceError("not_your_draw_offer", "You cannot answer your own offer.")
        if accept:
            return agree_draw(game, eg, at)
        game.draw_offer = None
        emit(game, "draw_declined", {"color": color})
        return False

    return run(public_id, ident, action, at)
