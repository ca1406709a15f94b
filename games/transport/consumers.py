"""Websocket consumers: thin. Parse, validate the shape, call one service, send.

A game socket is in its game's group and in its audience's group (games/transport/broadcast.py). The
audience group brings the frames of each committed change for that audience, serialized
once; the socket forwards them. It reads the database only on connect (or `sync`), when a
message's first version leaves a gap (the layer dropped one), on a nudge it is behind, and
when its role may have changed (a seat taken).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qs

from autobahn.exception import Disconnected  # daphne's websocket protocol, closed
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import connection
from django.utils import translation
from django.utils.translation import gettext as _

from moderation import sanctions

from .. import services
from ..domain import error_codes
from ..domain.errors import ServiceError
from ..domain.identity import Identity, identity_from, identity_token
from ..domain.models import BLUE, OBSERVER, RED
from ..services import chat, computer, match, snapshots
from . import compat, limits, lobby_feed, presence, unavailable
from .broadcast import LOBBY_GROUP, audience_group, game_group
from .guards import (
    CLOSE_FLOOD,
    CLOSE_NOT_FOUND,
    CLOSE_TOO_BIG,
    MAX_FRAME_BYTES,
    BadFrame,
    TokenBucket,
    frame_size,
    int_field,
    parse_frame,
    placement_field,
    room_field,
    text_field,
)
from .language import language_of
from .layers import forget_channel

logger = logging.getLogger(__name__)


class GuardedConsumer(AsyncWebsocketConsumer):
    """Size limit, flood limit and JSON parsing shared by both sockets."""

    closed = False
    accepted = False
    client_keys: list[str] = []  # what this socket counts against (games/transport/limits.py)
    person_group: str | None = None  # every socket of this person (moderation/sanctions.py)

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            limits.release(self.client_keys)
            self.client_keys = []
            await self.leave_person_group()
            if getattr(self, "channel_name", None):  # (set once the consumer started)
                forget_channel(self.channel_layer, self.channel_name)

    async def websocket_connect(self, message: dict) -> None:
        self.language = language_of(self.scope)
        with translation.override(self.language):
            await self.open_guarded(message)

    async def open_guarded(self, message: dict) -> None:
        self.bucket = TokenBucket()
        try:
            self.client_keys = limits.admit(self.scope)
        except limits.Refused as exc:
            await self.accept()
            await self.send_json(error_frame(exc.code, exc.message, None))
            await self.close_with(limits.CLOSE_TOO_MANY)
            return
        try:
            await self.open_socket(message)
        except unavailable.ERRORS as exc:
            unavailable.note("opening a socket", exc)
            if not self.accepted:
                await self.accept()
            await self.send_json(error_frame("unavailable", _(unavailable.MESSAGE), None))
            await self.close_with(unavailable.CLOSE_TRY_AGAIN)

    async def open_socket(self, message: dict) -> None:
        """Refuse a person banned from the site (told, then closed), join the group of the
        person's sockets (moderation/sanctions.py), then the consumer's own connect."""
        try:
            ident = await database_sync_to_async(allowed_identity)(self.scope)
        except ServiceError as exc:
            await self.accept()
            await self.send_json(exc.to_frame(None))
            await self.close_with(sanctions.CLOSE_BANNED)
            return
        self.person_group = sanctions.person_group(ident) if ident is not None else None
        if self.person_group is not None:
            await self.channel_layer.group_add(self.person_group, self.channel_name)
        await super().websocket_connect(message)

    async def accept(self, subprotocol: str | None = None, headers: list | None = None) -> None:
        self.accepted = True
        await super().accept(subprotocol, headers)

    async def leave_person_group(self) -> None:
        group, self.person_group = self.person_group, None
        if group is not None:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception as exc:  # Redis away: the group's entry expires by itself
                logger.warning("leaving %s failed: %r", group, exc)

    async def moderation_action(self, event: dict) -> None:
        """A moderator acted on this socket's person: the `moderation` frame, and for a ban
        from the site, the close (docs/protocol.md)."""
        await self.send_json(event["frame"])
        if event.get("close"):
            await self.close_with(event["close"])

    async def dispatch(self, message: dict) -> None:
        """As channels' dispatch, without its `aclose_old_connections()` before each message:
        that is a hop to the process's one database thread for every frame a socket gets
        (each of 200 spectators' copies of a move queued behind the moves' transactions).
        Every database access here goes through database_sync_to_async, which closes old
        connections before and after itself."""
        handler = getattr(self, compat.handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except unavailable.ERRORS as exc:  # e.g. a nudge's read while the pool is dry
            unavailable.note(message["type"], exc)
            await self.send_json(error_frame("unavailable", _(unavailable.MESSAGE), None))

    async def send_json(self, frame: dict) -> None:
        await self.send_text(snapshots.dumps(frame))

    async def send_text(self, text: str) -> None:
        if not self.closed:
            try:
                await self.send(text_data=text)
            except Disconnected:  # the socket closed meanwhile: what it missed is moot
                self.closed = True
                return
            if limits.drop_if_not_reading(self.base_send):
                self.closed = True

    async def close_with(self, code: int) -> None:
        if not self.closed:
            self.closed = True
            try:
                await self.close(code=code)
            except Disconnected:
                pass

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closed:
            return
        if frame_size(text_data, bytes_data) > MAX_FRAME_BYTES:
            await self.close_with(CLOSE_TOO_BIG)
            return
        if not self.bucket.take():
            await self.send_json(error_frame("rate_limited", _("Too many messages."), None))
            await self.close_with(CLOSE_FLOOD)
            return
        with translation.override(self.language):
            await self.answer(text_data, bytes_data)

    async def answer(self, text_data: str | None, bytes_data: bytes | None) -> None:
        """Handle one frame in the socket's language: an error frame for this socket alone
        speaks it (frames rendered for a whole audience are as they were)."""
        request = None
        try:
            message = parse_frame(text_data, bytes_data)
            request = message["type"]
            await self.handle(request, message)
        except BadFrame as exc:
            await self.send_json(error_frame(exc.code, exc.message, request))
        except ServiceError as exc:
            await self.send_json(exc.to_frame(request))
        except unavailable.ERRORS as exc:
            unavailable.note(f"socket action {request!r}", exc)
            await self.send_json(error_frame("unavailable", _(unavailable.MESSAGE), request))
        except Exception:
            logger.exception("unexpected failure handling %r", request)
            await self.send_json(error_frame("server_error", _("Something went wrong."), request))

    async def handle(self, kind: str, message: dict) -> None:
        raise NotImplementedError

    async def layer_resumed(self, event: dict) -> None:
        """Redis came back after an outage (games/transport/layers.py): what was in flight is
        lost."""


def error_frame(code: str, message: object, request: str | None) -> dict:
    """An error frame; `message` may be a lazy translation, read here in the active language."""
    frame = {"type": "error", "code": error_codes.sent(code), "message": str(message)}
    if request is not None:
        frame["request"] = request
    return frame


def requested_version(scope: dict) -> int | None:
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("version")
    if not values:
        return None
    try:
        return int(values[0])
    except ValueError:
        return None


def scope_identity(scope: dict) -> Identity | None:
    return identity_from(scope.get("user"), scope.get("session"))


def allowed_identity(scope: dict) -> Identity | None:
    """The socket's identity, or ServiceError `banned` (one trip to the database thread)."""
    ident = scope_identity(scope)
    sanctions.check_not_banned(ident)
    return ident


Action = Callable[[str, Identity | None, dict], Any]

ACTIONS: dict[str, Action] = {
    "join": lambda g, i, m: services.join_game(g, i, int_field(m, "seat", nullable=True)),
    "place": lambda g, i, m: services.place_piece(
        g, i, int_field(m, "square"), int_field(m, "rank")
    ),
    "remove": lambda g, i, m: services.remove_piece(g, i, int_field(m, "square")),
    "random_setup": lambda g, i, m: services.random_setup(g, i),
    "setup": lambda g, i, m: services.submit_setup(g, i, placement_field(m, "pieces")),
    "clear_setup": lambda g, i, m: services.clear_setup(g, i),
    "ready": lambda g, i, m: services.ready(g, i),
    "move": lambda g, i, m: services.move(g, i, int_field(m, "from"), int_field(m, "to")),
    "resign": lambda g, i, m: services.resign(g, i),
    "offer_draw": lambda g, i, m: services.offer_draw(g, i),
    "accept_draw": lambda g, i, m: services.answer_draw(g, i, accept=True),
    "decline_draw": lambda g, i, m: services.answer_draw(g, i, accept=False),
    "claim_victory": lambda g, i, m: services.claim_victory(g, i),
    # the match around the game (games/services/match.py) and its chat
    # (games/services/chat.py)
    "abort": lambda g, i, m: match.abort_game(g, i),
    "offer_rematch": lambda g, i, m: match.offer_rematch(g, i),
    "accept_rematch": lambda g, i, m: match.answer_rematch(g, i, accept=True),
    "decline_rematch": lambda g, i, m: match.answer_rematch(g, i, accept=False),
    "chat": lambda g, i, m: chat.post(g, i, room_field(m), text_field(m)),
}


def act(action: Action) -> Callable:
    """An action, run off the event loop. On PostgreSQL in a small pool of threads of its own
    (each with its persistent connection), not on the process's one thread_sensitive thread:
    actions on different games then wait for the database side by side (the row lock orders
    those on one game). SQLite takes one writer at a time anyway."""
    action = in_language(action, translation.get_language())
    if connection.vendor == "sqlite":
        return database_sync_to_async(action)
    return database_sync_to_async(action, thread_sensitive=False, executor=action_threads())


def in_language(action: Action, language: str | None) -> Action:
    """`action`, run in `language` (the socket's) in whatever thread runs it: its refusals
    (ServiceError messages) are written in that language."""
    if language is None:
        return action

    def run(*args: Any) -> Any:
        with translation.override(language):
            return action(*args)

    return run


_action_threads: ThreadPoolExecutor | None = None


def action_threads() -> ThreadPoolExecutor:
    """The process's action threads: settings.ACTION_THREADS of them (asyncio's default pool
    had six). A move holds one for its few round trips, so two serve hundreds of moves a
    second; more only add threads that fight for the process's GIL and the machine's cores
    when a burst comes (measured in docs/performance.md, "Figures behind the code")."""
    global _action_threads
    if _action_threads is None:
        workers = settings.ACTION_THREADS
        _action_threads = ThreadPoolExecutor(workers, thread_name_prefix="action")
    return _action_threads


CHECK_SLACK = 0.05  # seconds after a deadline before the socket's check runs
ACK_GRACE = 2.0  # seconds an actor waits for its event from the layer before reading it


class GameConsumer(GuardedConsumer):
    public_id = ""
    role = OBSERVER
    sent_version = -1
    joined = False
    check: asyncio.TimerHandle | None = None  # the clock check at the game's deadline
    check_task: asyncio.Task | None = None  # that check, running
    ack_check: asyncio.TimerHandle | None = None  # reads an action's event the layer lost
    ack_task: asyncio.Task | None = None  # that read, running

    async def connect(self) -> None:
        self.public_id = str(self.scope["url_route"]["kwargs"]["game_id"])
        await self.accept()
        self.identity = await database_sync_to_async(scope_identity)(self.scope)
        self.token = identity_token(self.identity)
        await self.channel_layer.group_add(game_group(self.public_id), self.channel_name)
        presence.watch(self.channel_name, asyncio.current_task())  # its life is the socket's
        role = await database_sync_to_async(presence.arrive)(
            self.public_id, self.channel_name, self.identity
        )
        if role is None:
            await self.channel_layer.group_discard(game_group(self.public_id), self.channel_name)
            await self.send_json(error_frame("not_found", _("There is no such game."), None))
            await self.close_with(CLOSE_NOT_FOUND)
            return
        self.joined = True
        self.role = role
        await self.channel_layer.group_add(audience_group(self.public_id, role), self.channel_name)
        since = requested_version(self.scope)
        await self.push_updates(-1 if since is None else since)
        computer.kick(self.public_id)  # a computer seated here resumes after a restart

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        """The socket's presence ends with the consumer, whatever ends it: a consumer that
        raised or was cancelled never runs disconnect(), and its row would count for ever."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self.leave_game()

    async def disconnect(self, code: int) -> None:
        await self.leave_game()

    async def leave_game(self) -> None:
        self.cancel_checks()
        if not self.joined:
            return
        self.joined = False
        for group in (game_group(self.public_id), audience_group(self.public_id, self.role)):
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception as exc:  # Redis away: the group's entry expires by itself
                logger.warning("leaving %s failed: %r", group, exc)
        await database_sync_to_async(presence.leave)(self.public_id, self.channel_name)

    async def push_updates(self, since: int | None = None) -> None:
        """Send what this socket has not seen yet, for its role now."""
        start = self.sent_version if since is None else since
        news = await database_sync_to_async(snapshots.catch_up)(
            self.public_id, self.identity, start
        )
        if news.role != self.role:
            await self.change_role(news.role)
        for frame in news.frames:
            await self.send_json(frame)
        self.sent_version = max(self.sent_version, news.version)
        self.schedule_check(news.deadline_in)

    async def change_role(self, role: int) -> None:
        """The socket's identity took a seat: it moves to that audience's group first, so no
        frame of its old audience reaches it after the frames of its new one."""
        layer, name = self.channel_layer, self.channel_name
        await layer.group_add(audience_group(self.public_id, role), name)
        await layer.group_discard(audience_group(self.public_id, self.role), name)
        self.role = role
        await database_sync_to_async(presence.enter)(self.public_id, name, role)

    # The clock is enforced on the server: every player's socket checks it at the deadline
    # (services.expire is idempotent, so one of them ends the game and the nudge brings the
    # end to all), whoever's turn it is and whether or not the loser is still connected.
    # Observers' sockets do not (a crowd would queue as many locked checks on the row at
    # flag fall); the heartbeat's sweep ends the games nobody plays in.
    def schedule_check(self, seconds: float | None) -> None:
        if self.check is not None:
            self.check.cancel()
            self.check = None
        if seconds is not None and self.joined and self.role in (RED, BLUE):
            loop = asyncio.get_running_loop()
            self.check = loop.call_later(seconds + CHECK_SLACK, self.start_check)

    def start_check(self) -> None:
        self.check = None
        if self.check_task is None or self.check_task.done():  # (one at a time: it reschedules)
            self.check_task = asyncio.ensure_future(self.check_clock())

    def cancel_checks(self) -> None:
        """The socket closes: no check scheduled, none running."""
        self.schedule_check(None)
        if self.ack_check is not None:
            self.ack_check.cancel()
            self.ack_check = None
        if self.ack_task is not None:  # (it ends with the socket: its lane, too)
            self.ack_task.cancel()
            self.ack_task = None
        if self.check_task is not None:
            self.check_task.cancel()
            self.check_task = None

    async def check_clock(self) -> None:
        try:
            seconds = await database_sync_to_async(services.expire)(self.public_id)
        except Exception as exc:  # the database is away: the heartbeat's sweep ends it
            logger.warning("clock check of %s failed: %r", self.public_id, exc)
            return
        if self.check is None:  # (a frame sent meanwhile has scheduled the next one)
            self.schedule_check(seconds)

    async def handle(self, kind: str, message: dict) -> None:
        if kind == "ping":
            await self.send_json({"type": "pong"})
        elif kind == "sync":
            await self.push_updates(int_field(message, "version"))
        elif kind in ACTIONS:
            action = ACTIONS[kind]
            version = await act(action)(self.public_id, self.identity, message)
            if kind == "join":  # the role changes: read it (and what it may see now)
                await self.push_updates()
            elif isinstance(version, int):
                self.expect(version)
        else:
            raise BadFrame("unknown_type", _("Unknown message type %(type)r.") % {"type": kind})

    def expect(self, version: int) -> None:
        """An accepted action's event comes through the audience group, normally at once; if
        the layer dropped it, the socket reads it after ACK_GRACE (the actor must get it)."""
        if version > self.sent_version:
            loop = asyncio.get_running_loop()
            self.ack_check = loop.call_later(ACK_GRACE, self.start_ack_check, version)

    def start_ack_check(self, version: int) -> None:
        if self.joined and version > self.sent_version:
            self.ack_task = asyncio.ensure_future(self.late_ack())

    async def late_ack(self) -> None:
        try:
            await self.push_updates()
        except Exception as exc:  # the database is away: the next event brings it all
            logger.warning("catch-up of %s failed: %r", self.public_id, exc)

    async def game_frames(self, event: dict) -> None:
        """A committed change, as this socket's audience sees it."""
        first, last = event["first"], event["last"]
        if self.role == OBSERVER and self.token is not None and self.token in event["seated"]:
            await self.push_updates()  # this identity holds a seat now (joined in another tab)
        elif last <= self.sent_version or not self.joined:
            return
        elif event["audience"] != self.role:  # sent before the role changed: never forwarded
            await self.push_updates()
        elif first > self.sent_version + 1:
            await self.push_updates()  # a gap: a message of the layer was lost
        else:
            for text in event["frames"][self.sent_version + 1 - first :]:
                await self.send_text(text)
            self.sent_version = last
            self.schedule_check(event["deadline_in"])

    async def game_nudge(self, event: dict) -> None:
        if event.get("version", 0) > self.sent_version:
            await self.push_updates()

    async def layer_resumed(self, event: dict) -> None:
        if self.joined:
            await self.late_ack()  # reads what the outage lost

    async def game_spectators(self, event: dict) -> None:
        await self.send_json({"type": "spectators", "count": event["count"]})


class NotFoundConsumer(AsyncWebsocketConsumer):
    """Any websocket path that matches no route: `not_found`, then close 4404."""

    async def connect(self) -> None:
        await self.accept()
        path = str(self.scope.get("path", ""))[:80]
        message = f"There is no websocket at {path!r}; see docs/protocol.md, Sockets."
        await self.send(text_data=json.dumps(error_frame("not_found", message, None)))
        await self.close(code=CLOSE_NOT_FOUND)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # closed already


class LobbyConsumer(GuardedConsumer):
    watching = False  # counted among the lobby feed's open sockets

    async def connect(self) -> None:
        await self.accept()
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        lobby_feed.opened()
        self.watching = True
        await self.send_lists()

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:  # however the socket ended (a consumer that raised runs no disconnect)
            self.stop_watching()

    def stop_watching(self) -> None:
        if self.watching:
            self.watching = False
            lobby_feed.closed()

    async def disconnect(self, code: int) -> None:
        self.stop_watching()
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def send_lists(self) -> None:
        await self.send_json(await lobby_feed.lists())

    async def handle(self, kind: str, message: dict) -> None:
        if kind == "ping":
            await self.send_json({"type": "pong"})
        else:
            raise BadFrame("unknown_type", _("Unknown message type %(type)r.") % {"type": kind})

    async def lobby_nudge(self, event: dict) -> None:
        lobby_feed.changed()
        await self.send_lists()

    async def layer_resumed(self, event: dict) -> None:
        lobby_feed.changed()
        await self.send_lists()
