"""Push, don't poll: each committed change reaches each audience's sockets as that audience's
frames, through the channel layer, and no socket reads the database for it."""

from __future__ import annotations

import json

import pytest

from games import services
from games.services import snapshots
from games.transport.consumers import GameConsumer

from .conftest import BLUE_SETUP, RED_SETUP, SHORT_GAME, adb, connect, make_guest, receive
from .leaks import assert_no_leak

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def layer_messages(monkeypatch):
    """Every `game.frames` message any socket received, with that socket's role then."""
    received: list[tuple[int, dict]] = []
    original = GameConsumer.game_frames

    async def recording(self, event: dict) -> None:
        role, before = self.role, self.sent_version
        sent: list[str] = []
        self.send_text = lambda text: sent.append(text) or type(self).send_text(self, text)
        try:
            await original(self, event)
        finally:
            del self.send_text
        forwarded = [t for t in sent if t in event["frames"]]
        received.append((role, event, forwarded, before))

    monkeypatch.setattr(GameConsumer, "game_frames", recording)
    return received


@pytest.fixture
def catch_ups(monkeypatch):
    """How many times sockets read the database for their frames."""
    calls: list[int] = []
    original = snapshots.catch_up

    def counting(public_id, ident, since):
        calls.append(since)
        return original(public_id, ident, since)

    monkeypatch.setattr(snapshots, "catch_up", counting)
    return calls


async def read_until(comm, version: int, role: int) -> list[dict]:
    frames = []
    while True:
        frame = await receive(comm)
        assert frame["type"] != "error", frame
        assert_no_leak(frame, role)
        frames.append(frame)
        if frame.get("version") == version and "view" in frame:
            return frames


def place_all(gid, ident, setup) -> None:
    services.submit_setup(gid, ident, setup)


@pytest.mark.asyncio
async def test_each_socket_gets_only_its_audience_messages(layer_messages, catch_ups):
    """A guest opens the game in two tabs as an observer and joins from one: both tabs move to
    Blue's audience; a third guest watches. Every layer message a socket got was built for
    the role it had then (the viewer of its view), and after the connects no socket read the
    database except for the seat it took."""
    red, blue, watcher = [await adb(make_guest)(n) for n in ("red", "blue", "watcher")]
    game = await adb(services.create_game)(red, variant="mini", seat=0)
    gid = game.public_id
    path = f"/ws/games/{gid}/"
    sockets = {
        "red": await connect(path, red),
        "blue": await connect(path, blue),
        "blue2": await connect(path, blue),
        "obs": await connect(path, watcher),
    }
    for comm in sockets.values():
        assert (await receive(comm))["type"] == "state"
    reads_after_connect = len(catch_ups)
    await sockets["blue"].send_json_to({"type": "join", "seat": 1})
    for name in sockets:
        await read_until(sockets[name], 2, 0 if name == "red" else 1 if "blue" in name else 2)
    assert len(catch_ups) - reads_after_connect == 2  # the joiner, and its other tab
    reads_after_join = len(catch_ups)

    await adb(place_all)(gid, red, RED_SETUP)
    await adb(place_all)(gid, blue, BLUE_SETUP)
    await adb(services.ready)(gid, red)
    version = await adb(services.ready)(gid, blue)
    roles = {"red": 0, "blue": 1, "blue2": 1, "obs": 2}
    last: dict[str, list[dict]] = {}
    for color, frm, to in SHORT_GAME:
        mover, other = ("red", "blue") if color == 0 else ("blue", "red")
        await sockets[mover].send_json_to({"type": "move", "from": frm, "to": to})
        version += 1 + (to == 22)  # the last move ends the game: game_over follows
        for name in (mover, other):  # the mover's answer, then the opponent's update
            last[name] = await read_until(sockets[name], version, roles[name])
    for name in ("blue2", "obs"):
        last[name] = await read_until(sockets[name], version, roles[name])
    assert all(frames[-1]["view"]["phase"] == "finished" for frames in last.values())
    assert len(catch_ups) == reads_after_join, "no socket read the database for a move"

    assert layer_messages
    for role, message, forwarded, _ in layer_messages:
        last = json.loads(message["frames"][-1])
        assert last["view"]["viewer"] == message["audience"]
        if forwarded:
            assert message["audience"] == role, f"a socket of role {role} forwarded {last}"
    assert any(forwarded for _, _, forwarded, _ in layer_messages)
    for comm in sockets.values():
        await comm.disconnect()


@pytest.mark.asyncio
async def test_a_lost_layer_message_is_read_from_the_database(catch_ups):
    """A gap in the versions a socket got (the layer dropped a message): the next message
    makes it read what it missed, in order."""
    red, blue = await adb(make_guest)("red"), await adb(make_guest)("blue")
    game = await adb(services.create_game)(red, variant="mini", seat=0)
    gid = game.public_id
    await adb(services.join_game)(gid, blue)
    comm = await connect(f"/ws/games/{gid}/", red)
    state = await receive(comm)
    original = GameConsumer.game_frames
    dropped: list[int] = []

    async def drop_first(self, event: dict) -> None:
        if not dropped:
            dropped.append(event["first"])
            return
        await original(self, event)

    GameConsumer.game_frames = drop_first
    try:
        await adb(services.place_piece)(gid, red, 0, RED_SETUP[0])
        await adb(services.place_piece)(gid, red, 1, RED_SETUP[1])
        frames = await read_until(comm, state["version"] + 2, 0)
    finally:
        GameConsumer.game_frames = original
    assert dropped == [state["version"] + 1]
    assert [f["version"] for f in frames] == [state["version"] + 1, state["version"] + 2]
    assert catch_ups[-1] == state["version"]
    await comm.disconnect()


@pytest.mark.asyncio
async def test_an_action_is_answered_by_its_event_when_another_committed_meanwhile(monkeypatch):
    """Blue's draw offer commits while Red's move waits for the row: Red's socket gets both
    events in version order (the offer, then its move), never a whole `state` instead."""
    from .helpers import set_up_game

    gid, red, blue = await adb(set_up_game)()
    comm = await connect(f"/ws/games/{gid}/", red)
    version = (await receive(comm))["version"]
    real_move = services.move

    def move_after_an_offer(public_id, ident, frm, to):
        services.offer_draw(public_id, blue)  # another event of the game commits first
        return real_move(public_id, ident, frm, to)

    monkeypatch.setattr(services, "move", move_after_an_offer)
    color, frm, to = SHORT_GAME[0]
    await comm.send_json_to({"type": "move", "from": frm, "to": to})
    frames = await read_until(comm, version + 2, 0)
    assert [(f["type"], f["event"]["kind"]) for f in frames] == [
        ("event", "draw_offered"),
        ("event", "move"),
    ]
    assert [f["version"] for f in frames] == [version + 1, version + 2]
    await comm.disconnect()


async def test_a_socket_gets_its_frames_while_the_database_thread_is_busy():
    """A frame from the layer goes out without a turn of the process's one database thread
    (channels' dispatch took one per message to close old connections: 200 spectators' copies
    of a move then queued behind every transaction of the process)."""
    import asyncio
    import threading

    from channels.db import database_sync_to_async
    from channels.layers import get_channel_layer

    from games.transport.broadcast import game_group

    game = await adb(services.create_game)(await adb(make_guest)(), variant="mini")
    comm = await connect(f"/ws/games/{game.public_id}/", None)
    await receive(comm)  # its state
    gate = threading.Event()
    busy = asyncio.ensure_future(database_sync_to_async(gate.wait)())  # holds the thread ...
    release = threading.Timer(3.0, gate.set)  # ... for 3 s (never for ever, if this fails)
    release.start()
    message = {"type": "game.spectators", "count": 7}
    await get_channel_layer().group_send(game_group(game.public_id), message)
    counts = []
    while 7 not in counts:  # (its own arrival may be announced first)
        counts.append((await receive(comm, timeout=10, skip=()))["count"])
    assert not gate.is_set(), "the frame waited for the database thread"
    gate.set()
    release.cancel()
    await busy
    await comm.disconnect()
