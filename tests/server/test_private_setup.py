"""A setup is private until play starts. Every frame the opponent and an
observer receive during the setup (live, in a catch-up, in a fresh state) says only how many
pieces a side has placed and whether it is ready; when play starts, the occupied squares."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from games import engine, services
from games.domain.models import GameEvent

from .conftest import RED_SETUP, adb, connect, make_guest, receive
from .leaks import assert_no_leak
from .test_full_game import Table

pytestmark = pytest.mark.django_db(transaction=True)


async def seated_table() -> Table:
    red, blue = await adb(make_guest)("red"), await adb(make_guest)("blue")
    game = await adb(services.create_game)(red, variant="mini", seat=0)
    await adb(services.join_game)(game.public_id, blue)
    table = Table(game.public_id)
    table.identities = {0: red, 1: blue, 2: None}
    for role, ident in table.identities.items():
        table.sockets[role] = await connect(f"/ws/games/{game.public_id}/", ident)
    await table.catch_up()
    return table


async def set_up_by_hand(table: Table, red_order: list[int]) -> None:
    """Red places its army square by square in `red_order`, with a take-back, a clear and a
    whole setup on the way; Blue uses the random setup."""
    await table.act(0, {"type": "place", "square": red_order[0], "rank": RED_SETUP[red_order[0]]})
    await table.act(0, {"type": "remove", "square": red_order[0]})
    await table.act(1, {"type": "random_setup"})
    for square in red_order[:5]:
        await table.act(0, {"type": "place", "square": square, "rank": RED_SETUP[square]})
    await table.act(0, {"type": "random_setup"})
    await table.act(0, {"type": "clear_setup"})
    for square in red_order:
        await table.act(0, {"type": "place", "square": square, "rank": RED_SETUP[square]})


def events_of(table: Table, role: int) -> list[dict]:
    return [f["event"] for f in table.frames[role] if f["type"] == "event"]


@pytest.mark.asyncio
async def test_opponent_and_observer_learn_only_counts_until_play_starts():
    table = await seated_table()
    await set_up_by_hand(table, sorted(RED_SETUP))  # every frame read is leak-checked
    for role in (1, 2):
        red_events = [e for e in events_of(table, role) if e.get("color") == 0]
        assert red_events and all(set(e) == {"kind", "color", "placed"} for e in red_events)
        assert [e["placed"] for e in red_events][-3:] == [8, 9, 10]
        assert table.frames[role][-1]["view"]["placed"] == [10, 10]
        assert not any(p and p["color"] == 0 for p in table.frames[role][-1]["view"]["board"])
    await table.act(0, {"type": "ready"})
    view = table.frames[1][-1]["view"]
    assert view["ready"] == [True, False] and view["phase"] == "setup"
    assert not any(p and p["color"] == 0 for p in view["board"])  # ready is not playing yet

    # A catch-up of the whole setup phase, and a fresh state, say no more than live frames.
    for role in (1, 2):
        late = await connect(f"/ws/games/{table.public_id}/?version=0", table.identities[role])
        first = await receive(late)
        frames = [first]
        while "view" not in frames[-1]:
            frames.append(await receive(late))
        for frame in frames:
            assert_no_leak(frame, role)
        await late.send_json_to({"type": "sync", "version": -1})
        assert_no_leak(await receive(late), role)
        await late.disconnect()

    await table.act(1, {"type": "ready"})  # play starts: the occupied squares show
    for role in (1, 2):
        board = table.frames[role][-1]["view"]["board"]
        red = sorted(sq for sq, p in enumerate(board) if p and p["color"] == 0)
        assert red == sorted(RED_SETUP) and all(board[sq]["rank"] is None for sq in red)
    for comm in table.sockets.values():
        await comm.disconnect()


@pytest.mark.asyncio
async def test_the_order_of_placement_changes_nothing_the_others_receive():
    """Two games, Red placing the same army in opposite orders: the opponent and the
    observer receive the very same events."""
    received = []
    for order in (sorted(RED_SETUP), sorted(RED_SETUP, reverse=True)):
        table = await seated_table()
        await set_up_by_hand(table, order)
        received.append(
            [[e for e in events_of(table, role) if e.get("color") == 0] for role in (1, 2)]
        )
        mine = [e for e in events_of(table, 0) if e["kind"] == "placed"]
        assert mine[-1]["square"] == order[-1]  # the owner does see its own squares
        for comm in table.sockets.values():
            await comm.disconnect()
    assert received[0] == received[1]


@pytest.mark.django_db(transaction=False)
def test_the_migration_hides_the_squares_of_setup_events_stored_before():
    red, blue = make_guest("red"), make_guest("blue")
    gid = services.create_game(red, variant="mini", seat=0).public_id
    services.join_game(gid, blue)
    services.place_piece(gid, red, 7, engine.MARSHAL)
    services.place_piece(gid, red, 8, engine.COLONEL)
    services.remove_piece(gid, red, 7)
    services.random_setup(gid, blue, seed=1)
    old = {"placed": {"square": 7, "rank": None}, "removed": {"square": 7}}
    for event in GameEvent.objects.filter(game__public_id=gid):  # as the events were written
        kind, color = event.kind, event.red_payload.get("color")
        if kind in old:
            event.blue_payload = event.observer_payload = {"kind": kind, "color": 0, **old[kind]}
        elif kind == "random_setup":
            squares = event.blue_payload["squares"]
            stale = {"kind": kind, "color": color, "squares": squares, "ranks": None}
            event.red_payload = event.observer_payload = stale
        event.save()
    module = importlib.import_module("games.migrations.0009_private_setup")
    module.hide_setups(apps, None)
    events = GameEvent.objects.filter(game__public_id=gid, kind__in=module.SETUP_KINDS)
    hidden = [(e.kind, e.observer_payload.get("placed"), set(e.observer_payload)) for e in
              events.order_by("version")]  # fmt: skip
    keys = {"kind", "color", "placed"}
    assert hidden == [("placed", 1, keys), ("placed", 2, keys), ("removed", 1, keys),
                      ("random_setup", 10, keys)]  # fmt: skip
    for event in events:
        other = event.blue_payload if event.red_payload.get("color", 0) == 0 else event.red_payload
        assert set(other) == keys
