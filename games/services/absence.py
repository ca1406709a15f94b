"""Players who leave: the `absent`/`present` events, a claim of victory against a
player gone too long, and a seat left for good."""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime, timedelta

from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from ..domain import clocks, options, presence
from ..domain.errors import ServiceError
from ..domain.identity import Identity
from ..domain.models import Game, Presence, left_field
from .endings import abort, finish
from .events import emit
from .unit import apply, computer_level, run
from .work import UnitOfWork


def claim_victory(public_id: str, ident: Identity | None) -> int:
    """Win a game the opponent abandoned: gone (no socket) for ABANDON_SECONDS, in setup or
    in an untimed game. The game ends with termination `forfeit` (a player left)."""

    at = clocks.now()

    def action(unit: UnitOfWork, color: int) -> None:
        require_claimable(unit.game, 1 - color, at)
        finish(unit, "forfeit", winner=color)

    return run(public_id, ident, action, at)


def require_claimable(game: Game, opponent: int, at: datetime) -> None:
    if game.status not in (Game.Status.SETUP, Game.Status.PLAYING):
        raise ServiceError("no_opponent", _("Nobody has joined yet: there is nothing to claim."))
    if computer_level(game, opponent):
        raise ServiceError("computer_opponent", _("The computer never leaves a game."))
    if not clocks.claims_apply(game):
        raise ServiceError(
            "timed_game",
            _("The clocks decide this game: your opponent loses when their time is up."),
        )
    if opponent in presence.players_connected(game.pk):
        raise ServiceError("opponent_connected", _("Your opponent is connected."))
    claim = clocks.claim_time(game, opponent)
    if claim is None:
        raise ServiceError("opponent_connected", _("Your opponent has not left the game."))
    if at < claim:
        wait = math.ceil((claim - at).total_seconds())
        raise ServiceError(
            "claim_too_early",
            _("Your opponent left recently: you may claim victory in %(wait)s s.") % {"wait": wait},
        )


def player_left(public_id: str, color: int, since: datetime | None = None) -> None:
    """The last socket of `color`'s seat went away (at `since`, default now). In setup or in
    play this is the numbered event `absent` for everybody."""

    def step(unit: UnitOfWork) -> None:
        game = unit.game
        if not game.is_active or game.left_at(color) is not None:
            return
        if color in presence.players_connected(game.pk):
            return  # another tab of the same seat is still open
        game.set_left(color, since or clocks.now())
        if announces_presence(game):
            emit_absent(unit, color)

    apply_if_exists(public_id, step)


def apply_if_exists(public_id: str, step: Callable[[UnitOfWork], None]) -> None:
    """`step` in a unit of work, if the game still exists; the clock is not looked at."""
    try:
        apply(public_id, step, settle=False)
    except ServiceError as exc:
        if exc.code != "not_found":
            raise


def emit_absent(unit: UnitOfWork, color: int) -> None:
    """The numbered event `absent`: `color` is gone since when, and may be claimed against
    from when (None: claims do not apply)."""
    game = unit.game
    since, claim = clocks.away_since(game, color), clocks.claim_time(game, color)
    payload = {"seat": color, "since": clocks.iso(since), "claimable_at": clocks.iso(claim)}
    emit(unit, "absent", payload)


def player_back(public_id: str, color: int) -> None:
    """A socket of `color`'s seat connected while the seat counted as gone: the claim against
    it is off. In setup or in play this is the numbered event `present` for everybody."""

    def step(unit: UnitOfWork) -> None:
        game = unit.game
        if not game.is_active or game.left_at(color) is None:
            return
        if color not in presence.players_connected(game.pk):
            return  # the socket closed again meanwhile
        game.set_left(color, None)
        if announces_presence(game):
            emit(unit, "present", {"seat": color})

    apply_if_exists(public_id, step)


def announces_presence(game: Game) -> bool:
    return game.status in (Game.Status.SETUP, Game.Status.PLAYING)


def forfeit_seat(public_id: str, color: int) -> int | None:
    """`color` left for good (a TCP player's grace period ran out, docs/legacy-protocol.md):
    the other side wins by forfeit; a game nobody joined is aborted. The new version, or
    None when the game was over already."""
    ended: list[int] = []

    def step(unit: UnitOfWork) -> None:
        game = unit.game
        if not game.is_active:
            return
        if game.status == Game.Status.WAITING:
            abort(unit)
        else:
            finish(unit, "forfeit", winner=1 - color)
        ended.append(game.version)

    apply_if_exists(public_id, step)
    return ended[0] if ended else None


# ---------------------------------------------------------------- seats never connected


def mark_never_connected() -> int:
    """A seat nobody ever connected to counts as gone once the game is ABANDON_SECONDS into
    its setup (or turn), so it can be claimed like one that left (the scheduler's sweep).
    How many seats."""
    seats = never_connected()
    for public_id, color, since in seats:
        player_left(public_id, color, since=since)
    return len(seats)


def never_connected() -> list[tuple[str, int, datetime]]:
    """(game, seat, since when) of human seats with no live socket that never left (so were
    never connected) in games in setup or play for ABANDON_SECONDS or more."""
    return [
        (row["public_id"], color, row["turn_started"])
        for row in never_connected_rows()
        for color in presence.PLAYERS
        if row[f"{left_field(color)}_unseen"]
    ]


def never_connected_rows() -> QuerySet:
    """The games of never_connected, in one query of a few columns: per seat whether it is a
    person's with no live socket that never left (a computer's seat never counts)."""
    cut = timezone.now() - timedelta(seconds=options.ABANDON_SECONDS)
    unseen = {
        f"{left_field(color)}_unseen": ExpressionWrapper(
            Q(**{left_field(color): None})
            & ~Exists(Presence.objects.filter(presence.live(), game=OuterRef("pk"), role=color))
            & Q(**{f"{left_field(color).split('_')[0]}_computer": ""}),  # a person's seat
            output_field=BooleanField(),
        )
        for color in presence.PLAYERS
    }
    return (
        Game.objects.filter(
            status__in=[Game.Status.SETUP, Game.Status.PLAYING], turn_started__lte=cut
        )
        .annotate(**unseen)
        .filter(Q(red_left_unseen=True) | Q(blue_left_unseen=True))
        .values("public_id", "turn_started", *unseen)
    )
