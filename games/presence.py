"""Who is connected to a game, so that spectators can be counted across processes."""

from __future__ import annotations

from .broadcast import LOBBY_GROUP, game_group, send_now
from .identity import Identity, role_of
from .models import OBSERVER, Game, Presence


def arrive(public_id: str, channel_name: str, ident: Identity | None) -> int | None:
    """Register a new socket; its role, or None when the game does not exist."""
    game = Game.objects.filter(public_id=public_id).first()
    if game is None:
        return None
    role = role_of(game, ident)
    enter(public_id, channel_name, role)
    return role


def observers(game_id: int) -> int:
    return Presence.objects.filter(game_id=game_id, role=OBSERVER).count()


def announce(game: Game) -> None:
    send_now(game_group(game.public_id), {"type": "game.spectators", "count": observers(game.pk)})
    if not game.private:
        send_now(LOBBY_GROUP, {"type": "lobby.nudge"})


def enter(public_id: str, channel_name: str, role: int) -> None:
    game = Game.objects.filter(public_id=public_id).first()
    if game is None:
        return
    old = Presence.objects.filter(channel_name=channel_name).first()
    Presence.objects.update_or_create(
        channel_name=channel_name, defaults={"game": game, "role": role}
    )
    if role == OBSERVER or (old is not None and old.role == OBSERVER):
        announce(game)


def leave(public_id: str, channel_name: str) -> None:
    row = Presence.objects.filter(channel_name=channel_name).select_related("game").first()
    if row is None:
        return
    row.delete()
    if row.role == OBSERVER:
        announce(row.game)
