"""Who is acting: a logged-in user, or a guest known by session key and nickname."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from .models import BLUE, OBSERVER, RED, Game

NICKNAME_KEY = "nickname"


@dataclass(frozen=True)
class Identity:
    user_id: int | None
    session_key: str | None
    name: str
    computer: str | None = None  # the level, for the computer's own identity in a seat

    @property
    def guest(self) -> bool:
        return self.user_id is None


def identity_from(user: Any, session: Any) -> Identity | None:
    """The identity of a request or a websocket scope, or None for an anonymous visitor."""
    if user is not None and getattr(user, "is_authenticated", False):
        return Identity(user_id=user.pk, session_key=None, name=user.get_username())
    if session is None:
        return None
    nickname = session.get(NICKNAME_KEY)
    key = session.session_key
    if not nickname or not key:
        return None
    return Identity(user_id=None, session_key=key, name=str(nickname))


def holds_seat(game: Game, color: int, ident: Identity | None) -> bool:
    if ident is None:
        return False
    user_id = game.red_user_id if color == RED else game.blue_user_id
    if ident.user_id is not None:
        return user_id == ident.user_id
    session = game.red_session if color == RED else game.blue_session
    return user_id is None and bool(ident.session_key) and session == ident.session_key


def role_of(game: Game, ident: Identity | None) -> int:
    for color in (RED, BLUE):
        if holds_seat(game, color, ident):
            return color
    return OBSERVER


def identity_token(ident: Identity | None) -> str | None:
    """A one-way name of an identity, safe to send through the channel layer."""
    if ident is None:
        return None
    raw = f"user:{ident.user_id}" if ident.user_id is not None else f"guest:{ident.session_key}"
    return hashlib.sha256(raw.encode()).hexdigest()[:32]


def seat_token(game: Game, color: int) -> str | None:
    """identity_token of whoever holds `color`'s seat."""
    user_id = game.red_user_id if color == RED else game.blue_user_id
    session = game.red_session if color == RED else game.blue_session
    return identity_token(Identity(user_id, session or None, ""))
