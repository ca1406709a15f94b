"""The setup phase: each player places an army, privately, then says ready."""

from __future__ import annotations

import random
from collections.abc import Mapping

from django.utils.translation import gettext as _

from .. import engine
from ..domain import clocks
from ..domain.errors import ServiceError
from ..domain.identity import Identity
from ..domain.models import Game
from .events import emit, private_event
from .unit import run
from .work import UnitOfWork


def own_pieces(eg: engine.Game, color: int) -> dict[int, int]:
    return dict(eg.initial_setups()[color])


def setup_event(unit: UnitOfWork, kind: str, color: int, own: dict) -> None:
    """A change to `color`'s setup. The owner gets `own` (squares and ranks); the opponent
    and observers only how many pieces it has placed now: where, and in which order, it
    places them is private until play starts."""
    placed = len(own_pieces(unit.eg, color))
    private_event(unit, kind, color, {**own, "placed": placed}, {"color": color, "placed": placed})


def require_setup(game: Game) -> None:
    if game.status not in (Game.Status.WAITING, Game.Status.SETUP):
        raise ServiceError("not_setup_phase", _("The setup is over."))


def place_piece(public_id: str, ident: Identity | None, square: int, rank: int) -> int:
    def action(unit: UnitOfWork, color: int) -> None:
        game, eg = unit.game, unit.eg
        require_setup(game)
        eg.place(color, square, rank)
        own = {"color": color, "square": square, "rank": rank}
        setup_event(unit, "placed", color, own)

    return run(public_id, ident, action)


def remove_piece(public_id: str, ident: Identity | None, square: int) -> int:
    def action(unit: UnitOfWork, color: int) -> None:
        game, eg = unit.game, unit.eg
        require_setup(game)
        eg.remove(color, square)
        setup_event(unit, "removed", color, {"color": color, "square": square})

    return run(public_id, ident, action)


def random_setup(public_id: str, ident: Identity | None, seed: int | None = None) -> int:
    def action(unit: UnitOfWork, color: int) -> None:
        game, eg = unit.game, unit.eg
        require_setup(game)
        before = own_pieces(eg, color)
        eg.random_setup(color, random.Random(seed))
        added = {sq: r for sq, r in own_pieces(eg, color).items() if sq not in before}
        squares = sorted(added)
        own = {"color": color, "squares": squares, "ranks": [added[s] for s in squares]}
        setup_event(unit, "random_setup", color, own)

    return run(public_id, ident, action)


def submit_setup(public_id: str, ident: Identity | None, placement: Mapping[int, int]) -> int:
    """Replace the caller's whole setup by `placement` (square -> rank), which the engine
    checks as a whole: a complete, legal army, or nothing changes. One event, `setup`, whose
    ranks only the owner sees (the others get the occupied squares)."""
    pieces = dict(placement)

    def action(unit: UnitOfWork, color: int) -> None:
        game, eg = unit.game, unit.eg
        require_setup(game)
        eg.set_setup(color, pieces)
        squares = sorted(pieces)
        own = {"color": color, "squares": squares, "ranks": [pieces[s] for s in squares]}
        setup_event(unit, "setup", color, own)

    return run(public_id, ident, action)


def clear_setup(public_id: str, ident: Identity | None) -> int:
    def action(unit: UnitOfWork, color: int) -> None:
        game, eg = unit.game, unit.eg
        require_setup(game)
        eg.clear_setup(color)
        setup_event(unit, "cleared", color, {"color": color})

    return run(public_id, ident, action)


def ready(public_id: str, ident: Identity | None) -> int:
    at = clocks.now()

    def action(unit: UnitOfWork, color: int) -> None:
        game, eg = unit.game, unit.eg
        require_setup(game)
        eg.mark_ready(color)
        playing = eg.phase == "playing"
        if playing:
            game.status = Game.Status.PLAYING
            game.started = at
            clocks.start_play(game, at)
        emit(unit, "ready", {"color": color, "playing": playing})
        unit.lobby = playing

    return run(public_id, ident, action, at)
