"""The socket side of the bot client: find a game, play it through a `PlayerSeat`."""

from __future__ import annotations

import json
import logging
from urllib.parse import urlsplit

from websockets.asyncio.client import connect

from .seat import PlayerSeat

logger = logging.getLogger(__name__)


def endpoints(server: str) -> tuple[str, str]:
    """(websocket base, Origin) of a server URL such as http://localhost:8000."""
    parts = urlsplit(server if "://" in server else f"http://{server}")
    secure = parts.scheme in ("https", "wss")
    ws = f"{'wss' if secure else 'ws'}://{parts.netloc}"
    return ws, f"{'https' if secure else 'http'}://{parts.netloc}"


class BotConnection:
    def __init__(self, server: str, token: str, record: list | None = None) -> None:
        self.base, self.origin = endpoints(server)
        self.headers = {"Authorization": f"Bearer {token}"}
        self.record = record  # every frame received, when a list is given (tests: leak check)

    def open(self, path: str):  # noqa: ANN201 - an async context manager
        return connect(
            self.base + path, origin=self.origin, additional_headers=self.headers, open_timeout=10
        )

    def received(self, raw: str) -> dict:
        frame = json.loads(raw)
        if self.record is not None:
            self.record.append(frame)
        return frame

    async def seek(self, variant: str | None) -> str:
        """The id of the first open game in the lobby (of `variant`) with a free seat."""
        async with self.open("/ws/lobby/") as ws:
            async for raw in ws:
                lists = self.received(raw)
                for entry in lists.get("waiting", ()):
                    if variant in (None, entry["variant"]) and None in entry["seats"]:
                        return entry["id"]
        raise ConnectionError("the lobby closed")

    async def play(self, public_id: str, seat: PlayerSeat) -> dict | None:
        """Play the game to its end; its result (None if the socket closed first)."""
        async with self.open(f"/ws/games/{public_id}/") as ws:
            async for raw in ws:
                for message in seat.on_frame(self.received(raw)):
                    await ws.send(json.dumps(message))
                if seat.finished:
                    return seat.outcome
        return seat.outcome
