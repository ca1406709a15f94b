"""Nudges through the channel layer, sent only after the transaction commits.

A nudge carries no board and no rank: every socket reads its own role's view from the
database when nudged, so nothing secret ever crosses Redis.
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
