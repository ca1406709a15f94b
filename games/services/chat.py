"""A game's two chats: the players' (everybody in the game reads it) and
the spectators' (players do not see it while the game is on). Plain text: stored as typed
(minus control characters), escaped by whoever draws it (the client sets textContent, the
admin format_html). Length- and rate-limited; each message is a numbered game event like any
other, written by one transaction on the locked game row, and kept with the game."""

from __future__ import annotations

import unicodedata
from datetime import timedelta

from django.utils.translation import gettext as _

from moderation.sanctions import check_can_chat

from ..domain import clocks
from ..domain.chat_message import MAX_CHARS, PLAYERS, SPECTATORS, ChatMessage
from ..domain.errors import ServiceError
from ..domain.identity import Identity, role_of
from ..domain.models import BLUE, OBSERVER, RED, Game
from . import rate_limits as http_limits
from .events import emit
from .unit import apply
from .work import UnitOfWork

RATE_COUNT, RATE_SECONDS = 5, 10  # at most 5 messages in any 10 seconds, per person and game
HISTORY_LIMIT = 200


def clean(text: str) -> str:
    """The text without control characters (a newline becomes a space), trimmed."""
    kept = (" " if ch in "\r\n\t" else ch for ch in text)
    return "".join(ch for ch in kept if unicodedata.category(ch)[0] != "C").strip()


# ---------------------------------------------------------------- posting


def author_key(ident: Identity) -> str:
    return f"u{ident.user_id}" if ident.user_id is not None else f"s{ident.session_key}"


def check_room(game: Game, role: int, room: str) -> None:
    if room == PLAYERS and role == OBSERVER:
        raise ServiceError("not_a_player", _("Only the players write in the players' chat."))
    if room == SPECTATORS and role != OBSERVER:
        raise ServiceError("not_a_spectator", _("Players do not write in the spectators' chat."))


def check_rate(game: Game, key: str) -> None:
    since = clocks.now() - timedelta(seconds=RATE_SECONDS)
    recent = ChatMessage.objects.filter(game=game, author_key=key, created__gte=since).count()
    if recent >= RATE_COUNT:
        raise ServiceError(
            "chat_too_fast",
            _("At most %(count)s messages in %(seconds)s s.")
            % {"count": RATE_COUNT, "seconds": RATE_SECONDS},
        )


def check_person_rate(ident: Identity) -> None:
    """All games together, a person writes at most games/services/rate_limits.py's `chat` limit."""
    person = f"person:{author_key(ident)}"
    try:
        http_limits.count("chat", person)
    except http_limits.Limited as exc:
        raise ServiceError("chat_too_fast", exc.message) from None
    except Exception:  # the cache is away: the per-game limit still holds
        pass


def post(public_id: str, ident: Identity | None, room: str, text: str) -> int:
    """Write one chat message; returns the game's new version."""
    if ident is None:
        raise ServiceError("no_identity", _("Choose a nickname or log in first."))
    text = clean(text)
    if not text or len(text) > MAX_CHARS:
        raise ServiceError(
            "bad_chat", _("A message has 1 to %(most)s characters.") % {"most": MAX_CHARS}
        )
    check_can_chat(ident)
    check_person_rate(ident)

    def step(unit: UnitOfWork) -> None:
        game = unit.game
        role = role_of(game, ident)
        check_room(game, role, room)
        key = author_key(ident)
        check_rate(game, key)
        message = ChatMessage.objects.create(
            game=game, version=game.version + 1, room=room, role=role, author=ident.name,
            author_key=key, text=text,
        )  # fmt: skip
        emit_chat(unit, message)

    return apply(public_id, step, settle=False).version


def emit_chat(unit: UnitOfWork, message: ChatMessage) -> None:
    """The `chat` event: the spectators' chat reaches the players only as `hidden` while
    the game is on (the version still advances for them: versions have no gaps)."""
    full = message.public()
    if message.room == SPECTATORS and unit.game.is_active:
        hidden = {"room": SPECTATORS, "hidden": True}
        emit(unit, "chat", hidden, hidden, full)
    else:
        emit(unit, "chat", full)


# ---------------------------------------------------------------- reading


def visible_to(game: Game, role: int) -> list[dict]:
    """The chat this role may read now, oldest first (the players' chat for everybody; the
    spectators' for spectators, and for players once the game is over)."""
    messages = ChatMessage.objects.filter(game=game)
    if role in (RED, BLUE) and game.is_active:
        messages = messages.filter(room=PLAYERS)
    latest = list(messages.order_by("-version")[:HISTORY_LIMIT])
    return [{**m.public(), "version": m.version} for m in reversed(latest)]
