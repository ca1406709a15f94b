"""Players who leave: the `absent`/`present` events, a claim of victory against a
player gone too long, and a seat left for good."""

from __future__ import annotations

import math
from datetime import datetime

from django.db import transaction

from .. import clocks, engine, presence
from ..errors import ServiceError
from ..identity import Identity
from ..models import Game, left_field
from .endings import abort, finish
from .events import emit
from .unit import commit, computer_level, load, run


def claim_victory(public_id: str, ident: Identity | None) -> int:
    """Win a game the opponent abandoned: gone (no socket) for ABANDON_SECONDS, in setup or
    in an untimed game. The game ends with termination `forfeit` (a player left)."""

    at = clocks.now()

    def action(game: Game, color: int, eg: engine.Game) -> bool:
        require_claimable(game, 1 - color, at)
        eg.end(engine.Outcome(winner=color, termination="forfeit"))
        finish(game, eg, at)
        return True

    return run(public_id, ident, action, at)


def require_claimable(game: Game, opponent: int, at: datetime) -> None:
    if game.status not in (Game.Status.SETUP, Game.Status.PLAYING):
        raise ServiceError("no_opponent", "Nobody has joined yet: there is nothing to claim.")
    if computer_level(game, opponent):
        raise ServiceError("computer_opponent", "The computer never leaves a game.")
    if not clocks.claims_apply(game):
        raise ServiceError(
            "timed_game", "The clocks decide this game: your opponent loses when their time is up."
        )
    if opponent in presence.players_connected(game.pk):
        raise ServiceError("opponent_connected", "Your opponent is connected.")
    claim = clocks.claim_time(game, opponent)
    if claim is None:
        raise ServiceError("opponent_connected", "Your opponent has not left the game.")
    if at < claim:
        wait = math.ceil((claim - at).total_seconds())
        raise ServiceError(
            "claim_too_early", f"Your opponent left recently: you may claim victory in {wait} s."
        )


def player_left(public_id: str, color: int, since: datetime | None = None) -> None:
    """The last socket of `color`'s seat went away (at `since`, default now). In setup or in
    play this is the numbered event `absent` for everybody."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(public_id=public_id).first()
        if game is None or not game.is_active or game.left_at(color) is not None:
            return
        if color in presence.players_connected(game.pk):
            return  # another tab of the same seat is still open
        game.set_left(color, since or clocks.now())
        if not announces_presence(game):
            game.save(update_fields=[left_field(color)])
            return
        emit_absent(game, color)
        commit(game)


def emit_absent(game: Game, color: int) -> None:
    """The numbered event `absent`: `color` is gone since when, and may be claimed against
    from when (None: claims do not apply)."""
    since, claim = clocks.away_since(game, color), clocks.claim_time(game, color)
    payload = {"seat": color, "since": clocks.iso(since), "claimable_at": clocks.iso(claim)}
    emit(game, "absent", payload)


def player_back(public_id: str, color: int) -> None:
    """A socket of `color`'s seat connected while the seat counted as gone: the claim against
    it is off. In setup or in play this is the numbered event `present` for everybody."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(public_id=public_id).first()
        if game is None or not game.is_active or game.left_at(color) is None:
            return
        if color not in presence.players_connected(game.pk):
            return  # the socket closed again meanwhile
        game.set_left(color, None)
        if not announces_presence(game):
            game.save(update_fields=[left_field(color)])
            return
        emit(game, "present", {"seat": color})
        commit(game)


def announces_presence(game: Game) -> bool:
    return game.status in (Game.Status.SETUP, Game.Status.PLAYING)


def forfeit_seat(public_id: str, color: int) -> int | None:
    """`color` left for good (a TCP player's grace period ran out, docs/legacy-protocol.md):
    the other side wins by forfeit; a game nobody joined is aborted. The new version, or
    None when the game was over already."""
    at = clocks.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(public_id=public_id).first()
        if game is None or not game.is_active:
            return None
        eg = load(game)
        if game.status == Game.Status.WAITING:
            abort(game, at)
        else:
            eg.end(engine.Outcome(winner=1 - color, termination="forfeit"))
            finish(game, eg, at)
        commit(game, eg, lobby=True)
        return game.version
