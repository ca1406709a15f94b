"""Shared helpers: guest identities with real sessions, sockets on the real ASGI app."""

from __future__ import annotations

import inspect
import itertools
import json
import os
from collections.abc import Iterator

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers, get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from games import engine
from games.domain.identity import NICKNAME_KEY, Identity
from games.transport import limits, lobby_feed, presence
from stratego_site import scheduler

os.environ["BACKGROUND_WORK"] = "off"  # (before importing the app) tests start threads themselves
from stratego_site.asgi import application as default_application  # noqa: E402

ORIGIN = (b"origin", b"http://localhost")
_names = itertools.count(1)

# A five-move game on the mini board: Red's marshal walks up the middle column, beats the
# blue spy (a spy only wins when it attacks) and takes the flag on Blue's back row.
F, B, M, S = engine.FLAG, engine.BOMB, engine.MARSHAL, engine.SPY
RED_SETUP = {0: F, 1: B, 2: B, 3: B, 4: S, 5: engine.MINER, 6: engine.CAPTAIN, 7: M,
             8: engine.COLONEL, 9: engine.MAJOR}  # fmt: skip
BLUE_SETUP = {22: F, 20: B, 21: B, 23: B, 24: engine.MINER, 15: engine.CAPTAIN,
              16: engine.COLONEL, 17: S, 18: engine.MAJOR, 19: M}  # fmt: skip
# (color, from, to): ply 3 is a battle the marshal wins, ply 5 takes the flag.
SHORT_GAME = [(0, 7, 12), (1, 15, 10), (0, 12, 17), (1, 10, 15), (0, 17, 22)]


def make_guest(nickname: str | None = None) -> Identity:
    """A guest with a real session row, as the nickname form makes one."""
    name = nickname or f"guest{next(_names)}"
    session = SessionStore()
    session[NICKNAME_KEY] = name
    session.create()
    return Identity(user_id=None, session_key=session.session_key, name=name)


def socket(
    path: str, ident: Identity | None = None, application=None, origin: bool = True
) -> WebsocketCommunicator:
    headers = [ORIGIN] if origin else []
    if ident is not None and ident.session_key:
        headers.append((b"cookie", f"sessionid={ident.session_key}".encode()))
    return WebsocketCommunicator(application or default_application, path, headers=headers)


# What a communicator waits for a frame the server sends at once: a bound, not an expected
# time (a loaded machine took more than the library's 1 s default).
CONNECT_TIMEOUT = 10.0


async def connect(path: str, ident: Identity | None = None, application=None):
    comm = socket(path, ident, application)
    connected, _ = await comm.connect(timeout=CONNECT_TIMEOUT)
    assert connected
    return comm


async def receive(
    comm: WebsocketCommunicator, timeout: float = 5.0, skip: tuple = ("spectators",)
) -> dict:
    """The next frame, skipping spectator counts unless asked for."""
    while True:
        frame = json.loads(await comm.receive_from(timeout=timeout))
        if frame.get("type") not in skip:
            return frame


async def drain(comm: WebsocketCommunicator, until_version: int, timeout: float = 5.0) -> list:
    """Read frames until one carries `until_version` with a view; returns all read."""
    frames = []
    while True:
        frame = await receive(comm, timeout)
        frames.append(frame)
        if frame.get("version") == until_version and "view" in frame:
            return frames


def place_all(service_place, public_id: str, ident: Identity, setup: dict) -> None:
    for square, rank in setup.items():
        service_place(public_id, ident, square, rank)


def iter_pieces(value) -> Iterator[dict]:
    """Every piece dict (color + rank) anywhere in a frame."""
    if isinstance(value, dict):
        if "color" in value and "rank" in value and "moved" in value:
            yield value
        for item in value.values():
            yield from iter_pieces(item)
    elif isinstance(value, list):
        for item in value:
            yield from iter_pieces(item)


@pytest.fixture
def guests():
    return make_guest


@pytest.fixture(autouse=True)
async def fresh_channel_layer(request):
    """Each async test's sockets get a channel layer of their own, as one server process
    would. The Redis layer keeps per-channel asyncio locks that bind to the event loop they
    are first contended in; one test's loop ends, the next begins, and a lock left waited on
    by a socket that closed as a message arrived (a player's `absent` event, say) would refuse
    every later test's sockets ("bound to a different event loop")."""
    yield
    if inspect.iscoroutinefunction(request.function):
        layer = get_channel_layer()
        if hasattr(layer, "wait_received"):
            await layer.wait_received()  # the clean-ups of messages already received
        channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def fresh_client_limits():
    """Sockets a test left open do not count against the next test's (games/transport/limits.py),
    and
    no test is served the lobby lists another test read (games/transport/lobby_feed.py)."""
    limits.reset()
    lobby_feed.reset()
    yield
    limits.reset()
    lobby_feed.reset()


@pytest.fixture(autouse=True)
def no_heartbeat_after_the_test():
    """A test that started the scheduler's threads (stratego_site/scheduler.py) has them
    stopped after it, so they never beat on a database being flushed or dropped."""
    yield
    scheduler.stop()
    presence.forget_sockets()  # the sockets a test opened by hand (never closed) are not held


adb = database_sync_to_async
