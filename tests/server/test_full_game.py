"""A whole game over websockets, from the lobby to the flag, with an observer watching;
every frame every socket received is checked for leaks against the engine's view."""

from __future__ import annotations

import pytest

from games import engine, services
from games.domain.models import Game, Move

from .conftest import (
    BLUE_SETUP,
    RED_SETUP,
    SHORT_GAME,
    adb,
    connect,
    make_guest,
    receive,
)
from .leaks import assert_no_leak

pytestmark = pytest.mark.django_db(transaction=True)


def db_view(public_id: str, role: int) -> tuple[int, dict]:
    game = Game.objects.get(public_id=public_id)
    return game.version, engine.Game.from_dict(game.state).view(role).to_dict()


class Table:
    """The sockets of one game, by role, and every frame each has received."""

    def __init__(self, public_id: str) -> None:
        self.public_id = public_id
        self.sockets: dict[int, object] = {}
        self.frames: dict[int, list[dict]] = {0: [], 1: [], 2: []}
        self.seen: dict[int, int] = {}

    async def read(self, role: int) -> dict:
        try:
            frame = await receive(self.sockets[role])
        except TimeoutError:
            raise AssertionError(f"role {role} is still waiting after {self.seen}") from None
        assert frame["type"] != "error", frame
        assert_no_leak(frame, role)
        self.frames[role].append(frame)
        if "view" in frame:
            self.seen[role] = frame["version"]
        return frame

    async def catch_up(self) -> None:
        """Read every socket up to the game's version; its view must be the engine's."""
        for role in self.sockets:
            version, expected = await adb(db_view)(self.public_id, role)
            while self.seen.get(role) != version:
                await self.read(role)
            assert self.frames[role][-1]["view"] == expected

    async def act(self, role: int, message: dict) -> None:
        before = self.seen.get(role)
        await self.sockets[role].send_json_to(message)
        while self.seen.get(role) == before:  # the actor's own answer first
            await self.read(role)
        await self.catch_up()


@pytest.mark.asyncio
@pytest.mark.parametrize("time_control", [None, "5+3"])
async def test_whole_game_with_observer_and_no_leak(time_control):
    lobby = await connect("/ws/lobby/")
    assert (await receive(lobby))["type"] == "lobby"
    red, blue = await adb(make_guest)("alice"), await adb(make_guest)("bob")
    game = await adb(services.create_game)(red, variant="mini", seat=0, time_control=time_control)
    gid = game.public_id
    listed = await receive(lobby)
    assert [g["id"] for g in listed["waiting"]] == [gid]

    table = Table(gid)
    table.sockets[0] = await connect(f"/ws/games/{gid}/", red)
    table.sockets[1] = await connect(f"/ws/games/{gid}/", blue)  # an observer until it joins
    assert (await receive(table.sockets[1]))["role"] == 2
    table.seen[1] = 1
    await table.act(1, {"type": "join", "seat": 1})
    table.sockets[2] = await connect(f"/ws/games/{gid}/", await adb(make_guest)("carol"))
    await table.catch_up()
    assert [f["role"] for f in table.frames[2] if f["type"] == "state"] == [2]

    await table.act(0, {"type": "place", "square": 7, "rank": engine.MARSHAL})
    await table.act(0, {"type": "remove", "square": 7})
    await table.act(1, {"type": "random_setup"})
    await table.act(1, {"type": "clear_setup"})
    for role, setup in ((0, RED_SETUP), (1, BLUE_SETUP)):
        for square, rank in setup.items():
            await table.act(role, {"type": "place", "square": square, "rank": rank})
    await table.act(0, {"type": "ready"})
    await table.act(1, {"type": "ready"})
    for color, frm, to in SHORT_GAME:
        await table.act(color, {"type": "move", "from": frm, "to": to})

    last = table.frames[2][-1]
    assert last["event"] == {"kind": "game_over", "winner": 0, "termination": "flag_captured"}
    assert last["game"]["status"] == "finished" and last["view"]["phase"] == "finished"
    for role in (0, 1, 2):
        versions = [f["version"] for f in table.frames[role] if f["type"] == "event"]
        assert versions == sorted(versions) and len(set(versions)) == len(versions)
    kinds = [f["event"]["kind"] for f in table.frames[2] if f["type"] == "event"]
    assert kinds.count("move") == 5 and kinds[-1] == "game_over"
    battle = [f["event"] for f in table.frames[1] if f.get("event", {}).get("kind") == "move"][2]
    assert battle["battle"] == {
        "attacker": engine.MARSHAL,
        "defender": engine.SPY,
        "result": "attacker",
    }
    assert await adb(Move.objects.filter(game__public_id=gid).count)() == 5
    clocks = [f["clock"] for role in (0, 1, 2) for f in table.frames[role] if f["type"] != "pong"]
    if time_control is None:
        assert clocks == [None] * len(clocks)
    else:  # in play, the side to move's clock ran (Red's after Blue's moves...); at the end none
        running = [
            f["clock"]["running"]
            for f in table.frames[2]
            if f.get("event", {}).get("kind") == "move"
        ]
        assert running == [1, 0, 1, 0, None] and last["clock"]["running"] is None

    while True:  # the lobby saw the game go live and end
        listed = await receive(lobby)
        if [g["id"] for g in listed["finished"]] == [gid]:
            break
    assert listed["finished"][0]["result"]["termination"] == "flag_captured"
    for comm in (*table.sockets.values(), lobby):
        await comm.disconnect()


@pytest.mark.asyncio
async def test_observer_never_sees_setup_ranks():
    red, blue = await adb(make_guest)(), await adb(make_guest)()
    game = await adb(services.create_game)(red, variant="classic", seat=0)
    await adb(services.join_game)(game.public_id, blue)
    table = Table(game.public_id)
    for role, ident in ((0, red), (1, blue), (2, None)):
        table.sockets[role] = await connect(f"/ws/games/{game.public_id}/", ident)
    await table.catch_up()
    await table.act(0, {"type": "random_setup"})
    await table.act(1, {"type": "random_setup"})
    await table.act(0, {"type": "ready"})
    await table.act(1, {"type": "ready"})
    view = table.frames[2][-1]["view"]
    assert view["phase"] == "playing"
    assert all(p["rank"] is None for p in view["board"] if p)
    mine = table.frames[0][-1]["view"]["board"]
    assert all(p["rank"] is not None for p in mine if p and p["color"] == 0)
    assert all(p["rank"] is None for p in mine if p and p["color"] == 1)
    for comm in table.sockets.values():
        await comm.disconnect()


@pytest.mark.django_db(transaction=False)
def test_the_leak_check_itself_catches_leaks():
    hidden = {"color": 1, "rank": 10, "moved": False, "revealed": False, "scout": False}
    frame = {"type": "state", "version": 1, "view": {"viewer": 0, "phase": "playing",
             "board": [hidden], "remaining": {}}}  # fmt: skip
    with pytest.raises(AssertionError):
        assert_no_leak(frame, 0)
    with pytest.raises(AssertionError):
        assert_no_leak({"event": {"kind": "placed", "color": 0, "square": 3, "rank": 5}}, 1)
