"""Presence rows of a dead server process stop counting and are purged
(games/transport/presence.py)."""

from __future__ import annotations

import json
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from websockets.sync.client import connect as ws_connect

from games.domain.models import Game, Presence
from games.services import snapshots
from games.transport import presence
from stratego_site import scheduler

from .conftest import adb, connect, make_guest, receive
from .daphne import Daphne, assert_clean_log
from .helpers import seated_game, wait_until


def lobby_spectators(gid: str) -> int:
    lists = snapshots.lobby_lists()
    [entry] = [e for e in lists["live"] + lists["waiting"] if e["id"] == gid]
    return entry["spectators"]


def add_row(game: Game, channel: str, instance: str, age: float, role: int = 2) -> Presence:
    seen = timezone.now() - timedelta(seconds=age)
    return Presence.objects.create(
        game=game, channel_name=channel, role=role, instance=instance, seen=seen
    )


@pytest.mark.django_db
def test_rows_not_seen_for_the_ttl_do_not_count_and_a_beat_purges_only_them():
    gid, _, _ = seated_game()
    game = Game.objects.get(public_id=gid)
    ttl = presence.TTL_SECONDS
    presence.enter(gid, "mine", 2)  # a socket of this process, due for its re-stamp
    due = timezone.now() - timedelta(seconds=ttl - 5)
    Presence.objects.filter(channel_name="mine").update(seen=due)
    mine = Presence.objects.get(channel_name="mine")
    add_row(game, "other-live", "another-process", age=1)  # another live process
    add_row(game, "dead", "crashed-process", age=ttl + 5)
    add_row(game, "dead-player", "crashed-process", age=ttl + 5, role=0)
    assert snapshots.spectator_count(game) == 2 and lobby_spectators(gid) == 2
    assert presence.observers(game.pk) == 2

    assert presence.beat() == 2
    assert set(Presence.objects.values_list("channel_name", flat=True)) == {"mine", "other-live"}
    mine_before = mine.seen
    mine.refresh_from_db()
    assert mine.seen > mine_before  # re-stamped: it keeps counting
    assert presence.beat() == 0 and lobby_spectators(gid) == 2


@pytest.mark.django_db(transaction=True)
async def test_the_heartbeat_thread_keeps_live_sockets_and_purges_a_dead_process(monkeypatch):
    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 0.05)
    # 3 s: the dead row must still count when the watcher arrives (1 s was not enough once,
    # under load 10)
    monkeypatch.setattr(presence, "TTL_SECONDS", 3.0)
    scheduler.HEARTBEAT.start()  # as the server process starts it
    gid, red, _ = await adb(seated_game)()
    game = await adb(Game.objects.get)(public_id=gid)
    await adb(add_row)(game, "dead", "crashed-process", age=0)  # fresh for now, never re-stamped
    player = await connect(f"/ws/games/{gid}/", red)
    await receive(player)
    watcher = await connect(f"/ws/games/{gid}/", await adb(make_guest)("watcher"))
    assert (await receive(watcher))["game"]["spectators"] == 2
    assert await receive(player, skip=()) == {"type": "spectators", "count": 2}
    # the dead row is purged after the TTL and the new count announced; ours stay
    assert await receive(player, skip=(), timeout=15) == {"type": "spectators", "count": 1}
    channels = await adb(lambda: set(Presence.objects.values_list("channel_name", flat=True)))()
    assert "dead" not in channels and len(channels) == 2
    await adb(time.sleep)(1.5 * presence.TTL_SECONDS)  # live rows outlive the TTL: re-stamped
    assert await adb(lambda: Presence.objects.filter(game=game).count())() == 2
    assert await adb(lobby_spectators)(gid) == 1
    await watcher.disconnect()
    await player.disconnect()


@pytest.mark.django_db(transaction=True)
def test_after_a_crash_another_process_purges_the_dead_ones_sockets(tmp_path):
    env = {"PRESENCE_HEARTBEAT_SECONDS": "0.2", "PRESENCE_TTL_SECONDS": "1.0"}
    gid, red, _ = seated_game()
    first = Daphne(tmp_path / "first.log", env).start()
    second = Daphne(tmp_path / "second.log", env)
    try:
        with ws_connect(first.url(f"/ws/games/{gid}/"), additional_headers=first.origin) as ws:
            assert json.loads(ws.recv(timeout=10))["role"] == 2
            assert wait_until(lambda: lobby_spectators(gid) == 1)
            first.stop(crash=True)  # kill -9: no disconnect() runs
        assert Presence.objects.filter(game__public_id=gid).count() == 1  # left behind
        second.start()
        headers = {**second.origin, "Cookie": f"sessionid={red.session_key}"}
        with ws_connect(second.url(f"/ws/games/{gid}/"), additional_headers=headers) as player:
            assert json.loads(player.recv(timeout=10))["role"] == 0
            assert wait_until(lambda: Presence.objects.filter(role=2).count() == 0)
            assert lobby_spectators(gid) == 0
            assert Presence.objects.filter(game__public_id=gid, role=0).count() == 1
        assert_clean_log(second.log_text())
    finally:
        first.stop()
        second.stop()
