"""The socket side of the bot client: open or find a game, play it through a `PlayerSeat`."""

from __future__ import annotations

import asyncio
import json
import logging
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosedError, InvalidStatus

from .seat import PlayerSeat

logger = logging.getLogger(__name__)
RECONNECTS = 10  # tries to get back into a game whose socket dropped (a restart)
RECONNECT_SECONDS = 2.0
# the server closes a socket that sends more than 20 messages a second for long (a flood):
# against an opponent that answers at once, a bot keeps under that by pacing its sends
SEND_INTERVAL = 0.07


class Pacer:
    """Waits before each send until SEND_INTERVAL has passed since the one before."""

    def __init__(
        self,
        interval: float = SEND_INTERVAL,
        clock: Callable[[], float] | None = None,
        sleep: Callable[[float], Awaitable[None]] | None = None,
    ) -> None:
        self.interval = interval
        self.clock = clock or asyncio.get_running_loop().time
        self.sleep = sleep or asyncio.sleep
        self.last: float | None = None

    async def wait(self) -> None:
        if self.last is not None:
            left = self.last + self.interval - self.clock()
            if left > 0:
                await self.sleep(left)
        self.last = self.clock()


class ApiError(Exception):
    """The server refused an HTTP request of the bot API (its `error` code and message)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"HTTP {status} {code}: {message}")
        self.status, self.code = status, code


def endpoints(server: str) -> tuple[str, str]:
    """(websocket base, Origin) of a server URL such as http://localhost:8000."""
    parts = urlsplit(server if "://" in server else f"http://{server}")
    secure = parts.scheme in ("https", "wss")
    ws = f"{'wss' if secure else 'ws'}://{parts.netloc}"
    return ws, f"{'https' if secure else 'http'}://{parts.netloc}"


def wanted(entry: dict, variant: str | None, clock: str | None, me: str | None) -> bool:
    """A lobby entry this bot may join: a free seat, the variant and clock asked for, and
    not a game this very bot already sits in."""
    seats = entry["seats"]
    control = (entry.get("time_control") or {}).get("id", "untimed")
    mine = any(s and s.get("bot") and s["name"] == me for s in seats)
    return (
        None in seats
        and variant in (None, entry["variant"])
        and clock in (None, control)
        and (not mine)
    )


class BotConnection:
    def __init__(self, server: str, token: str, record: list | None = None) -> None:
        self.base, self.origin = endpoints(server)
        self.headers = {"Authorization": f"Bearer {token}"}
        self.record = record  # every frame received, when a list is given (tests: leak check)

    def open(self, path: str):  # (an async context manager)
        return connect(
            self.base + path, origin=self.origin, additional_headers=self.headers, open_timeout=10
        )

    def received(self, raw: str) -> dict:
        frame = json.loads(raw)
        if self.record is not None:
            self.record.append(frame)
        return frame

    # ------------------------------------------------------------ HTTP: the bot API
    def request(self, path: str, body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        headers = {**self.headers, "Content-Type": "application/json"}
        request = urllib.request.Request(self.origin + path, data=data, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as exc:
            try:
                answer = json.loads(exc.read())
            except ValueError:
                answer = {"error": "http", "message": exc.reason}
            raise ApiError(exc.code, answer.get("error", "?"), answer.get("message", "")) from None

    async def account(self) -> str:
        """The bot account's name (the token's)."""
        return (await asyncio.to_thread(self.request, "/api/bot/account/"))["name"]

    async def create(self, **game_options: object) -> tuple[str, int]:
        """Open a game (variant, time_control, seat, ...: docs/bots.md); (its id, our seat)."""
        created = await asyncio.to_thread(self.request, "/api/bot/games/", game_options)
        return created["id"], created["seat"]

    async def enter_event(self, event: int, invite: str = "") -> dict:
        """Enter an event (docs/bots.md, "Tournaments")."""
        body = {"invite": invite} if invite else {}
        return await asyncio.to_thread(self.request, f"/api/bot/tournaments/{event}/enter/", body)

    async def pairings(self, event: int) -> dict:
        """The bot's pairings in an event: which games to play now."""
        path = f"/api/bot/tournaments/{event}/pairings/"
        return await asyncio.to_thread(self.request, path)

    # ------------------------------------------------------------ sockets
    async def seek(
        self, variant: str | None, clock: str | None = None, me: str | None = None
    ) -> str:
        """The id of the first open game in the lobby (of `variant` and `clock`) with a free
        seat, waiting for one to appear."""
        async with self.open("/ws/lobby/") as ws:
            async for raw in ws:
                lists = self.received(raw)
                for entry in lists.get("waiting", ()):
                    if wanted(entry, variant, clock, me):
                        return entry["id"]
        raise ConnectionError("the lobby closed")

    async def play(self, public_id: str, seat: PlayerSeat) -> dict | None:
        """Play the game to its end; its result (None if the socket could not get back in).
        A dropped socket is opened again (the server sends the seat's state anew)."""
        for attempt in range(RECONNECTS + 1):
            try:
                return await self.play_once(public_id, seat)
            except (ConnectionClosedError, OSError) as exc:
                if attempt == RECONNECTS:
                    break
                logger.warning("game %s: the socket dropped (%r); back in a moment", public_id, exc)
                await asyncio.sleep(RECONNECT_SECONDS)
                seat.reconnected()
            except InvalidStatus as exc:
                if exc.response.status_code < 500 or attempt == RECONNECTS:
                    raise
                await asyncio.sleep(RECONNECT_SECONDS)
                seat.reconnected()
        return seat.outcome

    async def play_once(self, public_id: str, seat: PlayerSeat) -> dict | None:
        pacer = Pacer()
        async with self.open(f"/ws/games/{public_id}/") as ws:
            async for raw in ws:
                for message in seat.on_frame(self.received(raw)):
                    await pacer.wait()
                    await ws.send(json.dumps(message))
                if seat.finished:
                    return seat.outcome
        return seat.outcome
