"""Seats: create a game, take a seat in it, watch it; a guest's seats handed to the account
they sign up for."""

from __future__ import annotations

import random

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from moderation.sanctions import check_not_banned
from players import ratings

from .. import engine
from ..domain import clocks, options
from ..domain.errors import ServiceError
from ..domain.identity import Identity, holds_seat, role_of
from ..domain.models import BLUE, OBSERVER, RED, Game
from . import rate_limits as http_limits
from .absence import emit_absent
from .events import emit
from .unit import COLOR_NAMES, apply, apply_new
from .work import UnitOfWork

VARIANT_NAMES = tuple(engine.VARIANTS)


def check_variant(variant: str) -> None:
    if variant not in VARIANT_NAMES:
        raise ServiceError("bad_variant", _("Unknown variant %(variant)r.") % {"variant": variant})


def create_game(
    ident: Identity | None,
    variant: str = "classic",
    seat: int | None = RED,
    private: bool = False,
    time_control: str | None = None,
    rules: dict | None = None,
    rated: bool = False,
    rating_range: tuple[int | None, int | None] = (None, None),
) -> Game:
    """A new game with `ident` in `seat` (None: random). `time_control` is None/"untimed" or
    an id of options.TIME_CONTROLS ("5+3"); `rules` overrides rule settings of the variant
    (e.g. {"two_squares_limit": 3}), checked by the engine and saved in the engine state."""
    if ident is None:
        raise ServiceError("no_identity", _("Choose a nickname or log in first."))
    check_allowed(ident)
    check_variant(variant)
    check_seat(seat)
    control = options.time_control(time_control)
    overrides = options.checked_rules(variant, rules)
    if rated:
        ratings.check_rated_seat(ident)
    check_waiting(ident)
    if seat is None:
        seat = random.choice((RED, BLUE))
    state = engine.Game(engine.get_variant(variant).with_rules(**overrides)).to_dict()
    game = Game(variant=variant, private=private, state=state, rated=rated)
    game.rating_min, game.rating_max = rating_range
    clocks.set_control(game, control)

    def sit(unit: UnitOfWork) -> None:
        take_seat(unit, seat, ident)
        unit.lobby = True

    with transaction.atomic():
        apply_new(game, sit)
    return game


def check_allowed(ident: Identity) -> None:
    """ServiceError `banned` for a person a moderator banned from the site."""
    check_not_banned(ident)


def waiting_games(ident: Identity) -> int:
    """The games `ident` holds a seat in that wait for an opponent."""
    if ident.user_id is not None:
        mine = Q(red_user_id=ident.user_id) | Q(blue_user_id=ident.user_id)
    else:
        mine = Q(red_user=None, red_session=ident.session_key) | Q(
            blue_user=None, blue_session=ident.session_key
        )
    return Game.objects.filter(mine, status=Game.Status.WAITING).count()


def check_waiting(ident: Identity) -> None:
    """A person waits in a few games at most (games/services/rate_limits.py, waiting_games)."""
    if ident.computer:
        return
    most = http_limits.rule("waiting_games").count
    if waiting_games(ident) >= most:
        raise ServiceError(
            "too_many_waiting",
            _("You already wait for opponents in %(most)s games: cancel one or wait.")
            % {"most": most},
        )


def check_seat(seat: object) -> None:
    if seat is not None and (isinstance(seat, bool) or seat not in (RED, BLUE)):
        raise ServiceError("bad_seat", _("seat must be 0 (Red), 1 (Blue) or null (the free one)."))


def take_seat(unit: UnitOfWork, color: int, ident: Identity) -> None:
    game = unit.game
    prefix = "red" if color == RED else "blue"
    setattr(game, f"{prefix}_user_id", ident.user_id)
    setattr(game, f"{prefix}_session", ident.session_key or "")
    setattr(game, f"{prefix}_name", ident.name)
    setattr(game, f"{prefix}_computer", ident.computer or "")
    starts = game.seat_taken(RED) and game.seat_taken(BLUE) and game.status == Game.Status.WAITING
    if starts:
        game.status = Game.Status.SETUP
        clocks.start_setup(game, clocks.now())
    emit(unit, "seated", {"seat": color, "name": ident.name})
    if starts:  # a player who left while waiting is announced now (their absence starts now)
        for gone in (c for c in (RED, BLUE) if game.left_at(c) is not None):
            emit_absent(unit, gone)


def join_game(public_id: str, ident: Identity | None, seat: int | None = None) -> int:
    """Take seat `seat` (or the free one). Race-safe: the row is locked. Returns the seat."""
    if ident is None:
        raise ServiceError("no_identity", _("Choose a nickname or log in first."))
    check_seat(seat)
    check_allowed(ident)

    def sit(unit: UnitOfWork) -> None:
        nonlocal seat
        game = unit.game
        if role_of(game, ident) != OBSERVER:
            raise ServiceError("already_seated", _("You already hold a seat in this game."))
        if not game.is_active:
            raise ServiceError("game_not_active", _("This game is over."))
        free = [c for c in (RED, BLUE) if not game.seat_taken(c)]
        if not free:
            raise ServiceError("game_full", _("Both seats are taken; you can watch."))
        if seat is None:
            seat = free[0]
        if seat not in free:
            raise ServiceError(
                "seat_taken", _("%(color)s's seat is taken.") % {"color": _(COLOR_NAMES[seat])}
            )
        ratings.check_join(game, ident)
        take_seat(unit, seat, ident)
        unit.lobby = True

    apply(public_id, sit, settle=False)
    assert seat is not None  # (`sit` chose it)
    return seat


def watch(public_id: str, ident: Identity | None) -> tuple[Game, int]:
    """The game and the role this identity has in it (2 unless it holds a seat)."""
    game = Game.objects.filter(public_id=public_id).first()
    if game is None:
        raise ServiceError("not_found", _("There is no such game."))
    return game, role_of(game, ident)


def adopt_guest_games(session_key: str | None, account: Identity) -> int:
    """A guest who signs up keeps their games: each seat the guest session `session_key`
    holds becomes `account`'s, under its name. One unit of work per game, like any change to
    a game: a game being played waits for its row lock, and the sockets of a game still on
    hear of the new name (a `renamed` event). The number of seats handed over."""
    if not session_key or account.user_id is None:
        return 0
    guest = Identity(user_id=None, session_key=session_key, name="")
    held = Q(red_user=None, red_session=session_key) | Q(blue_user=None, blue_session=session_key)
    moved = 0

    def hand_over(unit: UnitOfWork) -> None:
        nonlocal moved
        game = unit.game
        for color in (RED, BLUE):
            if not holds_seat(game, color, guest):  # (checked again under the lock)
                continue
            prefix = "red" if color == RED else "blue"
            setattr(game, f"{prefix}_user_id", account.user_id)
            setattr(game, f"{prefix}_session", "")
            setattr(game, f"{prefix}_name", account.name)
            moved += 1
            if game.is_active:
                emit(unit, "renamed", {"seat": color, "name": account.name})
                unit.lobby = True

    for public_id in Game.objects.filter(held).values_list("public_id", flat=True):
        apply(public_id, hand_over, settle=False)  # (a game whose time ran out still moves)
    return moved
