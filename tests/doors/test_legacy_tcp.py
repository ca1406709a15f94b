"""The legacy protocol over TCP, on PostgreSQL + Redis, in the test's own process."""

from __future__ import annotations

import asyncio

import pytest
from django.db.models import Q

from games import engine
from games.domain.models import OBSERVER, Game, Move
from games.services import snapshots
from games.transport.legacy import frames as f
from games.transport.legacy.client import LegacyClient
from games.transport.legacy.pieces import ID_OF_RANK
from tests.server.conftest import (  # noqa: F401
    adb,
    connect,
    fresh_channel_layer,
    make_guest,
    no_heartbeat_after_the_test,
    receive,
)
from tests.server.leaks import assert_no_leak

from .legacy_script import (
    BLUE_SETUP,
    RED_SETUP,
    expect,
    expect_board,
    place,
    play_phase,
    setup_phase,
    sign_on,
    whole_game,
)
from .legacy_server import client, legacy_server

pytestmark = pytest.mark.django_db(transaction=True)


class CheckedClient:
    """A client whose every Board frame is compared with the engine's own pieces in the
    database: its own pieces by id, every enemy piece X, so no rank leaks (the leak check)."""

    def __init__(self, inner: LegacyClient, name: str, color: int) -> None:
        self.inner, self.name, self.color = inner, name, color
        self.boards = 0

    def __getattr__(self, attr: str):  # (sign_on, setup, ready, move, closed)
        return getattr(self.inner, attr)

    async def read(self, timeout: float = 10.0) -> tuple:
        frame = await self.inner.read(timeout)
        if frame[0] == f.BOARD:
            assert frame[1] == await adb(expected_board)(self.name, self.color)
            self.boards += 1
        return frame


def expected_board(name: str, color: int) -> str:
    game = Game.objects.filter(Q(red_name=name) | Q(blue_name=name)).latest("pk")
    eg = engine.Game.from_dict(game.state)
    cells = ["L" if sq in eg.variant.lakes else " " for sq in range(100)]
    for unit in eg.units:
        if unit.square >= 0:
            cells[unit.square] = ID_OF_RANK[unit.rank] if unit.color == color else "X"
    return "".join(cells)


async def test_python_clients_play_a_whole_game():
    async with legacy_server() as server:
        red = CheckedClient(await client(server), "alice", 0)
        blue = CheckedClient(await client(server), "bob", 1)
        await whole_game(red, blue)
        assert await red.closed() and await blue.closed()
        assert red.boards == blue.boards == 6  # Playing, then after each of the 5 moves
    game, moves = await adb(game_and_moves)("alice")
    assert (game.status, game.winner, game.termination) == ("finished", 0, "flag_captured")
    assert game.blue_name == "bob" and game.variant == "classic"
    assert moves == 5


def game_and_moves(red_name: str) -> tuple[Game, int]:
    game = Game.objects.get(red_name=red_name)
    return game, Move.objects.filter(game=game).count()


def game_of(red_name: str) -> Game:
    return Game.objects.filter(red_name=red_name).order_by("-pk").first()


async def watch(public_id: str, frames: list) -> None:
    """An observer's socket (the browser's protocol), recording every frame until the end."""
    sock = await connect(f"/ws/games/{public_id}/")
    try:
        while True:
            frame = await receive(sock, timeout=30)
            frames.append(frame)
            if (frame.get("event") or {}).get("kind") == "game_over":
                return
    finally:
        await sock.disconnect()


async def test_an_observer_watches_a_tcp_game_live_without_a_leak():
    async with legacy_server() as server:
        red, blue = await client(server), await client(server)
        await sign_on(red, blue, "ann", "ben")
        game = await adb(game_of)("ann")
        frames: list[dict] = []
        watcher = asyncio.create_task(watch(game.public_id, frames))
        await setup_phase(red, blue, "ann")
        await play_phase(red, blue, "ann", "ben")
        await asyncio.wait_for(watcher, 15)
    events = [fr["event"] for fr in frames if "event" in fr]
    assert [e["kind"] for e in events if e["kind"] in ("move", "game_over")] == ["move"] * 5 + [
        "game_over"
    ]
    assert [e["battle"]["result"] for e in events if e["kind"] == "move" and e["battle"]] == [
        "defender",
        "both",
        "attacker",
    ]
    for frame in frames:
        assert_no_leak(frame, OBSERVER)


async def test_a_tcp_player_waits_in_the_lobby_and_a_browser_player_joins():
    async with legacy_server() as server:
        tcp = await client(server)
        await tcp.sign_on("tess")
        await expect(tcp, f.WAIT, "wait")
        game = await adb(game_of)("tess")
        lobby = await adb(snapshots.lobby_lists)()
        entry = next(e for e in lobby["waiting"] if e["id"] == game.public_id)
        assert entry["variant"] == "classic" and entry["seats"][0]["name"] == "tess"
        assert entry["seats"][1] is None
        web_player = await adb(make_guest)("wendy")
        web = await connect(f"/ws/games/{game.public_id}/", web_player)
        await web.send_json_to({"type": "join", "seat": None})
        await expect(tcp, f.CONNECTED, "connected")
        pieces = {str(y * 10 + x): engine_rank(p) for p, x, y in BLUE_SETUP}
        await web.send_json_to({"type": "setup", "pieces": pieces})
        await web.send_json_to({"type": "ready"})
        await place(tcp, RED_SETUP)
        await tcp.ready()
        await expect(tcp, f.PLAYING, "tess")
        await expect_board(tcp, 0)
        await tcp.move(1, 3, 1, 4)
        await expect(tcp, f.MOVED, 1, 3, 1, 4)
        await expect_board(tcp, 0)
        await web_event(web, "move", lambda e: e["from"] == 31)
        await web.send_json_to({"type": "move", "from": 61, "to": 51})
        await expect(tcp, f.MOVED, 1, 6, 1, 5)
        await expect_board(tcp, 0)
        await web.send_json_to({"type": "resign"})
        await expect(tcp, f.GAME_OVER, "tess")
        await web_event(web, "game_over", lambda e: e["winner"] == 0)
        await web.disconnect()
    game = await adb(game_of)("tess")
    assert (game.blue_name, game.winner, game.termination) == ("wendy", 0, "resignation")


async def web_event(web, kind: str, check) -> dict:
    """The browser player's next event of `kind` (checked), every frame leak-checked."""
    while True:
        frame = await receive(web, timeout=10)
        assert frame.get("type") != "error", frame
        assert_no_leak(frame, frame.get("role", 1) if frame.get("type") == "state" else 1)
        event = frame.get("event") or {}
        if event.get("kind") == kind:
            assert check(event), event
            return event


def engine_rank(piece_id: str) -> int:
    from games.transport.legacy.pieces import RANK_OF_ID

    return RANK_OF_ID[piece_id]
