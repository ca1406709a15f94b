"""What the channel layer carries, sent only after the transaction commits.

A game's sockets are in two groups: the game's (spectator counts, nudges) and their
audience's (`audience.<id>.red|blue|obs`). After a commit each audience group gets the event
frames of that audience, computed once (games/snapshots.py `pushed_frames`), which its
sockets forward as they are: a socket never receives another audience's frames, and reads
the database only on connect, on a version gap or when a nudge says it is behind.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)
LOBBY_GROUP = "lobby"


def game_group(public_id: str) -> str:
    return f"game_{public_id}"


AUDIENCES = ("red", "blue", "obs")  # by role: 0 Red, 1 Blue, 2 observers


def audience_group(public_id: str, role: int) -> str:
    """The group of the sockets of `role` in a game ('.' never occurs in a game id)."""
    return f"audience.{public_id}.{AUDIENCES[role]}"


def send_now(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception as exc:  # the commit stands; sockets catch up on their next sync
        logger.warning("broadcast to %s failed: %r", group, exc)


def nudge_game_on_commit(public_id: str, version: int) -> None:
    message = {"type": "game.nudge", "version": version}
    transaction.on_commit(lambda: send_now(game_group(public_id), message))


def nudge_lobby_on_commit() -> None:
    transaction.on_commit(lambda: send_now(LOBBY_GROUP, {"type": "lobby.nudge"}))


def publish_on_commit(public_id: str, by_role: dict[int, dict]) -> None:
    """After the commit, each role's message to its audience group (and to no other)."""

    async def send_all(layer) -> None:  # noqa: ANN001 - a channel layer
        for role, message in by_role.items():
            await layer.group_send(audience_group(public_id, role), message)

    def publish() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            async_to_sync(send_all)(layer)
        except Exception as exc:  # the commit stands; sockets catch up on the next version gap
            logger.warning("publish to %s failed: %r", public_id, exc)

    transaction.on_commit(publish)
