"""The asyncio TCP server of the legacy protocol: names, the waiting game, and the grace period."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from channels.db import database_sync_to_async

from games import services
from games.domain.identity import Identity

from .seating import Seat, game_version, seat_player
from .session import Session

logger = logging.getLogger(__name__)

DEFAULT_PORT = 7777
GRACE_SECONDS = 30.0


class LegacyServer:
    def __init__(self, grace: float = GRACE_SECONDS, frame_timeout: float = 10.0) -> None:
        self.grace = grace
        self.frame_timeout = frame_timeout
        self.names: dict[str, Session] = {}  # the connected players' names
        self.graced: dict[str, tuple[Seat, asyncio.Task]] = {}  # gone, may come back
        self.waiting: str | None = None  # the game a TCP player opened, while nobody joined
        self.match_lock = asyncio.Lock()
        self.server: asyncio.Server | None = None
        self.connections: set[asyncio.Task] = set()
        self.closing = False

    async def start(self, host: str = "127.0.0.1", port: int = DEFAULT_PORT) -> asyncio.Server:
        self.server = await asyncio.start_server(self.connection, host, port)
        return self.server

    async def connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        task = asyncio.current_task()
        self.connections.add(task)
        try:
            await Session(self, reader, writer).run()
        except asyncio.CancelledError:
            pass  # the server is closing
        except Exception:  # one connection's failure never reaches the others
            logger.exception("legacy connection failed")
        finally:
            self.connections.discard(task)

    # ------------------------------------------------------------ names
    def claim_name(self, name: str, session: Session) -> bool:
        """A name is unique among connected players (a returning player's included)."""
        if name in self.names:
            return False
        self.names[name] = session
        return True

    def release_name(self, name: str, session: Session) -> None:
        if self.names.get(name) is session:
            del self.names[name]

    # ------------------------------------------------------------ seats
    async def seat(self, ident: Identity) -> Seat:
        async with self.match_lock:  # two sign-ons at once never both open a game
            public_id, color, version = await database_sync_to_async(seat_player)(
                ident, self.waiting
            )
            joined = public_id == self.waiting
            self.waiting = None if joined else public_id
        status = "setup" if joined else "waiting"
        return Seat(public_id, color, ident, version, status, opponent_seated=joined)

    def opponent_arrived(self, public_id: str) -> None:
        if self.waiting == public_id:  # a browser player took the other seat
            self.waiting = None

    async def left(self, name: str, seat: Seat) -> None:
        """The connection of a seated player closed before the game ended."""
        if self.waiting == seat.public_id:  # nobody joined: the game is aborted at once
            self.waiting = None
            await database_sync_to_async(services.forfeit_seat)(seat.public_id, seat.color)
            return
        if self.closing:
            return  # a restarted server's players come back or are claimed against
        task = asyncio.create_task(self.forfeit_later(name, seat))
        self.graced[name] = (seat, task)

    async def forfeit_later(self, name: str, seat: Seat) -> None:
        await asyncio.sleep(self.grace)
        self.graced.pop(name, None)
        await database_sync_to_async(services.forfeit_seat)(seat.public_id, seat.color)

    def take_grace(self, name: str) -> Seat | None:
        """The seat a player of this name left less than the grace period ago, if any."""
        entry = self.graced.pop(name, None)
        if entry is None:
            return None
        seat, task = entry
        task.cancel()
        return seat

    async def refresh(self, seat: Seat) -> Seat:
        seat.version, seat.status = await database_sync_to_async(game_version)(seat.public_id)
        seat.opponent_seated = seat.status != "waiting"
        return seat

    async def close(self) -> None:
        """Stop listening, end every connection, drop the grace periods running."""
        self.closing = True
        if self.server is not None:
            self.server.close()
        tasks = list(self.connections) + [task for _, task in self.graced.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.graced.clear()
        if self.server is not None:
            with contextlib.suppress(Exception):
                await self.server.wait_closed()
