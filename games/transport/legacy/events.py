"""The one place a door learns what happened in a game: "wait for the next events of game G
for seat C, and read my seat's view".

Built on the channel layer (games/transport/broadcast.py): after a commit the role's audience group
gets its frames (and the game's group a nudge for a change without events); any of them
wakes the reader, which fetches its role's payloads and view from the database
(games/services/snapshots.py), as a socket does after a version gap. A message lost on the way only
delays the news by one poll, so the doors never depend on the layer delivering every
message.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games.domain.models import RED, Game, GameEvent
from games.services import snapshots
from games.transport.broadcast import audience_group, game_group

POLL_SECONDS = 2.0


@dataclass
class News:
    version: int  # the game's version now
    events: list[dict]  # the payloads for the role, after the version asked for, in order
    view: dict  # the role's engine view now (View.to_dict())
    status: str
    names: tuple[str, str] = ("", "")  # the seats' names, Red's first


def read_news(public_id: str, role: int, since: int) -> News | None:
    """What `role` may see of the game after version `since`; None if there is no game."""
    game = Game.objects.filter(public_id=public_id).first()
    if game is None:
        return None
    # Only the events the game row read here already counts: one committed meanwhile comes
    # with the next read (else it would come twice, and before the view that includes it).
    rows = GameEvent.objects.filter(game=game, version__gt=since, version__lte=game.version)
    rows = rows.order_by("version")
    return News(
        version=game.version,
        events=[row.payload_for(role) for row in rows],
        view=snapshots.engine_view(game, role),
        status=game.status,
        names=(game.seat_name(RED), game.seat_name(1 - RED)),
    )


class GameFeed:
    """A channel subscribed to one game's group, for one role."""

    def __init__(self, public_id: str, role: int) -> None:
        self.public_id = public_id
        self.role = role
        self.layer = get_channel_layer()
        self.channel = ""

    async def open(self) -> str:
        self.channel = await self.layer.new_channel("legacy.")
        for group in self.groups():
            await self.layer.group_add(group, self.channel)
        return self.channel

    def groups(self) -> tuple[str, str]:
        return game_group(self.public_id), audience_group(self.public_id, self.role)

    async def close(self) -> None:
        if self.channel:
            for group in self.groups():
                await self.layer.group_discard(group, self.channel)

    async def next_news(self, since: int) -> News | None:
        """The next news after version `since` (waiting for it), None once the game is gone."""
        while True:
            news = await database_sync_to_async(read_news)(self.public_id, self.role, since)
            if news is None or news.events:
                return news
            await self.wait_nudge(news.version)

    async def wait_nudge(self, since: int) -> None:
        """Until a message tells of a version after `since`, or POLL_SECONDS. The messages of
        versions already read (each event also came as one, while the database was read) are
        dropped here: a database read for each would keep the process's database thread busy
        for nothing, e.g. after forty placements in a row. asyncio.timeout, not wait_for:
        Python 3.11's wait_for swallows a cancellation that arrives just as the receive got a
        message, and the feed would then wait again in a BZPOPMIN receive past its cancel."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(POLL_SECONDS):
                while True:
                    message = await self.layer.receive(self.channel)
                    if message_version(message) > since:
                        return


def message_version(message: dict) -> int:
    """The game version a layer message tells of (0: none, e.g. a spectator count)."""
    version = message.get("last", message.get("version"))
    return version if isinstance(version, int) else 0
