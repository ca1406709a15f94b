"""Redis restarts mid-game (games/transport/layers.py): on a real daphne whose channel layer uses a
redis-server of the test's own (stopped and started again; the machine's shared Redis is
never touched), the sockets stay open, a move made while Redis was away reaches the
opponent once it is back (the socket resyncs), the game goes on, and the log holds no
traceback."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from pathlib import Path

import pytest
import redis

from games.transport.layers import ResilientRedisChannelLayer
from stratego_site.settings import redis_host

from .daphne import Daphne, assert_clean_log, free_port, wait_for_port
from .helpers import set_up_game
from .test_idle_sockets import frames_until, is_move, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


class PrivateRedis:
    """A redis-server on a free port that keeps nothing on disk (so a restart forgets every
    group, as a real one without persistence does)."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                   "--save", "", "--appendonly", "no", "--dir", str(self.workdir)]  # fmt: skip
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        wait_for_port(self.port, self.proc)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None


@pytest.fixture
def private_redis(tmp_path):
    server = PrivateRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def daphne_on_private_redis(private_redis, tmp_path):
    server = Daphne(tmp_path / "daphne.log", env={"REDIS_URL": private_redis.url}).start()
    try:
        yield server
    finally:
        server.stop()


def groups(url: str) -> list[bytes]:
    return redis.Redis.from_url(url).keys("*:group:*")


def test_a_redis_restart_mid_game_loses_no_socket_and_no_move(
    private_redis, daphne_on_private_redis
):
    daphne = daphne_on_private_redis
    gid, red, blue = set_up_game()
    with open_socket(daphne, gid, red) as red_ws, open_socket(daphne, gid, blue) as blue_ws:
        frames_until(blue_ws, lambda f: f["type"] == "state")
        frames_until(red_ws, lambda f: f["type"] == "state")
        assert groups(private_redis.url)
        private_redis.stop()
        # committed while Redis is away: its publish fails, the mover reads its own event
        red_ws.send(json.dumps({"type": "move", "from": 7, "to": 12}))
        frames_until(red_ws, is_move(1))
        time.sleep(1)
        private_redis.start()  # empty: the groups are forgotten
        frames_until(blue_ws, is_move(1), timeout=20)  # Blue resynced once Redis was back
        assert groups(private_redis.url), "the process put its sockets back in their groups"
        blue_ws.send(json.dumps({"type": "move", "from": 15, "to": 10}))
        frames_until(red_ws, is_move(2))
        frames_until(blue_ws, is_move(2))
        red_ws.send(json.dumps({"type": "move", "from": 12, "to": 17}))
        frames_until(blue_ws, is_move(3))
    log = daphne.log_text()
    assert_clean_log(log)
    assert "Redis is back; 2 channel(s) resumed" in log


def test_sockets_survive_redis_dropping_its_clients(private_redis, daphne_on_private_redis):
    """`CLIENT KILL TYPE normal` (on the test's own Redis): every connection of the layer
    breaks at once, Redis keeps its data; the game goes on and the log is clean."""
    daphne = daphne_on_private_redis
    gid, red, blue = set_up_game()
    with open_socket(daphne, gid, red) as red_ws, open_socket(daphne, gid, blue) as blue_ws:
        frames_until(blue_ws, lambda f: f["type"] == "state")
        frames_until(red_ws, lambda f: f["type"] == "state")
        redis.Redis.from_url(private_redis.url).execute_command("CLIENT", "KILL", "TYPE", "normal")
        time.sleep(1)
        red_ws.send(json.dumps({"type": "move", "from": 7, "to": 12}))
        frames_until(red_ws, is_move(1))
        frames_until(blue_ws, is_move(1))
        blue_ws.send(json.dumps({"type": "move", "from": 15, "to": 10}))
        frames_until(red_ws, is_move(2))
    assert_clean_log(daphne.log_text())


@pytest.mark.asyncio
async def test_a_receive_waiting_out_an_outage_ends_at_once_when_cancelled(private_redis):
    """No receive outlives its consumer: a receive that is waiting for Redis to come back
    (probing it) ends as soon as it is cancelled, and the layer's waiting is in that task
    alone (no other task is left behind)."""
    layer = ResilientRedisChannelLayer(hosts=[redis_host(private_redis.url)], prefix="outage")
    channel = await layer.new_channel()
    await layer.group_add("g", channel)
    before = asyncio.all_tasks()
    receiving = asyncio.ensure_future(layer.receive(channel))
    await asyncio.sleep(0.3)
    private_redis.stop()
    await asyncio.sleep(1.0)  # the receive has failed and now waits for Redis
    assert not receiving.done()
    receiving.cancel()
    done, _ = await asyncio.wait([receiving], timeout=2)
    assert receiving in done and receiving.cancelled()
    await asyncio.sleep(0.1)
    assert not [t for t in asyncio.all_tasks() - before if not t.done()]


@pytest.mark.asyncio
async def test_after_an_outage_each_channel_gets_one_resumed_message(private_redis):
    layer = ResilientRedisChannelLayer(hosts=[redis_host(private_redis.url)], prefix="outage")
    first, second = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("g", first)
    await layer.group_add("g", second)
    receives = [asyncio.ensure_future(layer.receive(c)) for c in (first, second)]
    await asyncio.sleep(0.3)
    private_redis.stop()
    await asyncio.sleep(0.5)
    private_redis.start()  # empty: the group is forgotten
    done, _ = await asyncio.wait(receives, timeout=15)
    assert [r.result() for r in receives if r in done] == [{"type": "layer.resumed"}] * 2
    await layer.group_send("g", {"type": "game.nudge", "version": 1})  # the group is back
    assert await asyncio.wait_for(layer.receive(first), 5) == {"type": "game.nudge", "version": 1}
    assert await asyncio.wait_for(layer.receive(second), 5) == {"type": "game.nudge", "version": 1}
    await layer.close_pools()
