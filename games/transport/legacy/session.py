"""One TCP connection of the legacy protocol: sign on, set up, play, in its frames.

Every decision about the game is the services' (games/services/): a frame becomes one
service call, and the answers the other player must see come back as the game's events
(games/transport/legacy/events.py), translated here into the legacy protocol's frames.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol

from channels.db import database_sync_to_async

from games import services
from games.domain.errors import ServiceError
from games.domain.identity import Identity
from games.domain.models import RED
from games.transport import presence
from games.transport.guards import TokenBucket

from . import frames as f
from .events import GameFeed, News, read_news
from .pieces import ID_OF_RANK, RANK_OF_ID, board_cells, square_of, xy_of
from .seating import Seat, guest_named, valid_name


class Seats(Protocol):
    """What a session asks of the server that seats the connections
    (games/transport/legacy/server.py)."""

    def claim_name(self, name: str, session: Session) -> bool: ...
    def release_name(self, name: str, session: Session) -> None: ...
    async def seat(self, ident: Identity) -> Seat: ...
    def opponent_arrived(self, public_id: str) -> None: ...
    async def left(self, name: str, seat: Seat) -> None: ...
    def take_grace(self, name: str) -> Seat | None: ...
    async def refresh(self, seat: Seat) -> Seat: ...


logger = logging.getLogger(__name__)

RATE_PER_SECOND = 20.0
BURST = 100.0  # a whole army of Setup frames sent at once is no flood
MAX_PENDING = 100  # frames read but not yet answered: more is a flood, however slow the server


class Session:
    def __init__(
        self, server: Seats, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        self.server = server
        self.frames = f.FrameReader(reader, server.frame_timeout)
        self.writer = writer
        self.bucket = TokenBucket(RATE_PER_SECOND, BURST)
        self.name = ""
        self.seat: Seat | None = None
        self.feed: GameFeed | None = None
        self.pump: asyncio.Task | None = None
        self.over = False
        self.inbox: asyncio.Queue = asyncio.Queue()  # frames read, or the BadFrame that ended
        self.reading: asyncio.Task | None = None

    # ------------------------------------------------------------ the connection
    async def run(self) -> None:
        self.reading = asyncio.create_task(self.read_frames())
        try:
            await self.sign_on()
            await self.play()
        except f.BadFrame as exc:
            logger.info("legacy client %r dropped: %s", self.name or "?", exc)
        except (ConnectionError, OSError):
            pass  # the client went away
        finally:
            await self.leave()

    def send(self, frame: bytes) -> None:
        if not self.writer.is_closing():
            self.writer.write(frame)  # one write per frame: frames never interleave

    async def read_frames(self) -> None:
        """Read frames as they arrive, apart from answering them, so a flood is seen as a
        flood even while the answers wait for the database."""
        try:
            while True:
                frame = await self.frames.read_frame()
                if frame is None:
                    break
                if not self.bucket.take() or self.inbox.qsize() >= MAX_PENDING:
                    raise f.BadFrame("flood")
                self.inbox.put_nowait(frame)
        except f.BadFrame as exc:
            self.writer.close()  # at once: nothing more is read or answered
            while not self.inbox.empty():
                self.inbox.get_nowait()  # (frames still waiting are not played)
            self.inbox.put_nowait(exc)
            return
        except (ConnectionError, OSError):
            pass
        self.inbox.put_nowait(None)

    async def next_frame(self) -> tuple[int, tuple] | None:
        """The next frame read; None once the client has gone."""
        frame = await self.inbox.get()
        if isinstance(frame, f.BadFrame):
            raise frame
        return frame

    async def sign_on(self) -> None:
        """Until a free, valid name: a taken or invalid one gets Placement Invalid."""
        while True:
            frame = await self.next_frame()
            if frame is None:
                raise ConnectionResetError
            kind, payload = frame
            if kind != f.SIGN_ON:
                raise f.BadFrame(f"frame type {kind} before Sign On")
            name = payload[0]
            if valid_name(name) and self.server.claim_name(name, self):
                self.name = name
                return
            self.send(f.string_frame(f.PLACEMENT_INVALID, "invalid"))

    async def play(self) -> None:
        returning = self.server.take_grace(self.name)
        if returning is not None:
            self.seat = await self.server.refresh(returning)
        if self.seat is not None and self.seat.status in ("setup", "playing"):
            await self.attach(resumed=True)
        else:
            ident = await database_sync_to_async(guest_named)(self.name)
            self.seat = await self.server.seat(ident)
            await self.attach(resumed=False)
        while not self.over:
            frame = await self.next_frame()
            if frame is None:
                return
            await self.handle(*frame)

    async def attach(self, resumed: bool) -> None:
        seat = self.seat
        self.feed = GameFeed(seat.public_id, seat.color)
        channel = await self.feed.open()
        await database_sync_to_async(presence.enter)(seat.public_id, channel, seat.color)
        if not seat.opponent_seated:
            self.send(f.string_frame(f.WAIT, "wait"))
        elif seat.color != RED or resumed:
            self.send(f.string_frame(f.CONNECTED, "connected"))
        if resumed and seat.status == "playing":
            news = await database_sync_to_async(read_news)(seat.public_id, seat.color, seat.version)
            if news is not None:
                self.send(f.string_frame(f.PLAYING, news.names[RED]))
                self.send(f.board_frame(board_cells(news.view, seat.color)))
        self.pump = asyncio.create_task(self.pump_events(seat.version))

    async def leave(self) -> None:
        if self.reading is not None:
            self.reading.cancel()
        if self.pump is not None:
            self.pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.pump
        if self.feed is not None:
            await self.feed.close()
            await database_sync_to_async(presence.leave)(self.seat.public_id, self.feed.channel)
        if self.name:
            self.server.release_name(self.name, self)
        if self.seat is not None and not self.over:
            await self.server.left(self.name, self.seat)
        with contextlib.suppress(ConnectionError, OSError):
            self.writer.close()
            await self.writer.wait_closed()

    # ------------------------------------------------------------ client frames
    async def handle(self, kind: int, payload: tuple) -> None:
        if kind == f.SETUP:
            ok = await self.call(self.place, *payload)
            self.send(f.string_frame(f.PLACEMENT_VALID if ok else f.PLACEMENT_INVALID,
                                     "valid" if ok else "invalid"))  # fmt: skip
        elif kind == f.READY:  # a complete setup's Ready is answered by Playing, later
            if not await self.call(services.ready, self.seat.public_id, self.seat.ident):
                self.send(f.string_frame(f.PLACEMENT_INVALID, "invalid"))
        elif kind == f.MOVE:
            if not await self.call(self.move, *payload):
                self.send(f.string_frame(f.MOVE_INVALID, "invalid move"))
        else:
            raise f.BadFrame(f"frame type {kind} after Sign On")

    async def call(self, action, *args) -> bool:  # (any service call)
        """Run one service call; False when the server refused it (nothing changed)."""
        try:
            await database_sync_to_async(action)(*args)
        except ServiceError:
            return False
        return True

    def place(self, piece_id: str, x: int, y: int) -> None:
        square, rank = square_of(x, y), RANK_OF_ID.get(piece_id)
        if square is None or rank is None:
            raise ServiceError("bad_piece", "unknown piece id or square off the board")
        services.place_piece(self.seat.public_id, self.seat.ident, square, rank)

    def move(self, x0: int, y0: int, x1: int, y1: int) -> None:
        src, dst = square_of(x0, y0), square_of(x1, y1)
        if src is None or dst is None:
            raise ServiceError("off_board", "a square off the board")
        services.move(self.seat.public_id, self.seat.ident, src, dst)

    # ------------------------------------------------------------ the game's events
    async def pump_events(self, since: int) -> None:
        while not self.over:
            news = await self.feed.next_news(since)
            if news is None:
                return
            for event in news.events:
                self.translate(event, news)
            since = news.version
            await self.writer.drain()
        self.writer.close()  # the game is over: so is the connection (docs/legacy-protocol.md)

    def translate(self, event: dict, news: News) -> None:
        color, kind = self.seat.color, event["kind"]
        if kind == "seated" and event["seat"] != color:
            self.server.opponent_arrived(self.seat.public_id)
            self.send(f.string_frame(f.CONNECTED, "connected"))
        elif kind == "ready" and event["playing"]:
            self.send(f.string_frame(f.PLAYING, news.names[RED]))
            self.send(f.board_frame(board_cells(news.view, color)))
        elif kind == "move":
            self.send(move_frame(event, news.names))
            self.send(f.board_frame(board_cells(news.view, color)))
        elif kind == "game_over":
            self.over = True
            self.send(f.string_frame(f.GAME_OVER, winner_name(event, news.names)))


def move_frame(event: dict, names: tuple[str, str]) -> bytes:
    (x0, y0), (x1, y1) = xy_of(event["from"]), xy_of(event["to"])
    battle = event.get("battle")
    if not battle:
        return f.ints_frame(f.MOVED, x0, y0, x1, y1)
    mover = event["color"]
    winner = {"attacker": names[mover], "defender": names[1 - mover]}.get(battle["result"], "tie")
    return f.battle_frame(winner, ID_OF_RANK[battle["attacker"]], ID_OF_RANK[battle["defender"]])


def winner_name(event: dict, names: tuple[str, str]) -> str:
    """The winner's user name; `tie` for a draw, `aborted` for a game that never began."""
    if event["winner"] is not None:
        return names[event["winner"]]
    return "aborted" if event["termination"] == "aborted" else "tie"
