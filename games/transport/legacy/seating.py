"""Who plays on the TCP door: guest identities named after their user names, and matching."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.sessions.backends.db import SessionStore

from games import services
from games.domain.errors import ServiceError
from games.domain.identity import NICKNAME_KEY, Identity
from games.domain.models import BLUE, RED, Game

MAX_NAME_LENGTH = 150  # a seat's name field


@dataclass
class Seat:
    public_id: str
    color: int
    ident: Identity
    version: int  # the game's version when the connection took (or took back) the seat
    status: str
    opponent_seated: bool


def guest_named(name: str) -> Identity:
    """A guest with a real session row, as the browser's nickname form makes one."""
    session = SessionStore()
    session[NICKNAME_KEY] = name
    session.create()
    return Identity(user_id=None, session_key=session.session_key, name=name)


def valid_name(name: str) -> bool:
    return bool(name.strip()) and len(name) <= MAX_NAME_LENGTH and name.isprintable()


def seat_player(ident: Identity, waiting: str | None) -> tuple[str, int, int]:
    """Join the TCP door's waiting game if it is still open, else open a new classic game as
    Red. Returns (game id, seat, version after the seat was taken)."""
    if waiting is not None:
        try:
            seat = services.join_game(waiting, ident, BLUE)
        except ServiceError:
            pass  # taken meanwhile (by a browser player) or ended: open a new one
        else:
            return waiting, seat, Game.objects.get(public_id=waiting).version
    game = services.create_game(ident, "classic", seat=RED)
    return game.public_id, RED, game.version


def game_version(public_id: str) -> tuple[int, str]:
    game = Game.objects.get(public_id=public_id)
    return game.version, game.status
