"""On the embedded default (SQLite file, in-memory channel layer) a real daphne serves the TCP
door itself (LEGACY_PORT, as `LEGACY_PORT=7777 make run`): a TCP player and a browser-protocol
socket play each other live, and an observer's socket sees the TCP game live.

The in-memory layer never crosses processes and a game socket never polls, so each "live"
wait below (a few seconds) fails if the door's events went anywhere but this process."""

from __future__ import annotations

import asyncio
import json
import socket
import time
import urllib.request

import pexpect
from websockets.asyncio.client import connect as ws_connect

from games.transport.legacy import frames as f
from games.transport.legacy.client import LegacyClient
from tests.server.leaks import assert_no_leak

from .botproc import bot_client, finished
from .embedded import EmbeddedDaphne, guest_session, manage
from .legacy_script import RED_SETUP, expect, expect_board, place
from .test_terminal import PROMPT, board, choose, spawn
from .test_terminal_online import play_until_battle

LIVE = 5.0  # seconds: news reaches the other door at once, or not at all


class Socket:
    """A browser-protocol websocket that keeps every frame it reads."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.frames: list[dict] = []

    async def send(self, **message) -> None:
        await self.ws.send(json.dumps(message))

    async def until(self, wanted, timeout: float = 30.0) -> dict:
        async def read() -> dict:
            while True:
                frame = json.loads(await self.ws.recv())
                self.frames.append(frame)
                if wanted(frame):
                    return frame

        return await asyncio.wait_for(read(), timeout)

    def last_view(self) -> dict:
        return next(fr["view"] for fr in reversed(self.frames) if "view" in fr)


def event(kind: str):
    return lambda frame: frame.get("type") == "event" and frame["event"]["kind"] == kind


def playing(frame: dict) -> bool:
    return frame.get("view", {}).get("phase") == "playing"


async def waiting_game(server: EmbeddedDaphne, cookie: dict, name: str) -> str:
    async with ws_connect(server.url("/ws/lobby/"), additional_headers=cookie) as lobby:
        lists = json.loads(await lobby.recv())
    return next(g["id"] for g in lists["waiting"] if g["seats"][0]["name"] == name)


async def timed(awaitable) -> tuple[float, object]:
    start = time.monotonic()
    result = await awaitable
    return time.monotonic() - start, result


async def live_game(server: EmbeddedDaphne) -> None:
    tess = await LegacyClient.connect("127.0.0.1", server.legacy_port)
    await tess.sign_on("tess")
    await expect(tess, f.WAIT, "wait")
    wes_cookie = {"Cookie": f"sessionid={guest_session(server.http, 'wes')}", **server.origin}
    olga_cookie = {"Cookie": f"sessionid={guest_session(server.http, 'olga')}", **server.origin}
    game_id = await waiting_game(server, wes_cookie, "tess")  # the TCP game is in the lobby
    path = server.url(f"/ws/games/{game_id}/")
    async with (
        ws_connect(path, additional_headers=wes_cookie) as wes_ws,
        ws_connect(path, additional_headers=olga_cookie) as olga_ws,
    ):
        wes, olga = Socket(wes_ws), Socket(olga_ws)
        await olga.until(lambda fr: fr.get("type") == "state")
        await wes.until(lambda fr: fr.get("type") == "state")
        await wes.send(type="join", seat=None)
        await expect(tess, f.CONNECTED, "connected")  # the browser player took Blue
        await wes.send(type="random_setup")
        await wes.send(type="ready")
        await place(tess, RED_SETUP)
        await tess.ready()
        await expect(tess, f.PLAYING, "tess")
        await expect_board(tess, 0)
        await wes.until(playing)
        await olga.until(playing)

        await tess.move(1, 3, 1, 4)  # the TCP player's move, live on both sockets
        await expect(tess, f.MOVED, 1, 3, 1, 4)
        await expect_board(tess, 0)
        took, frame = await timed(wes.until(event("move"), LIVE))
        assert (frame["event"]["from"], frame["event"]["to"]) == (31, 41), frame
        took_obs, _ = await timed(olga.until(event("move"), LIVE))
        print(f"TCP move seen by the browser player in {took:.3f} s, the observer {took_obs:.3f} s")

        view = wes.last_view()
        assert view["turn"] == 1 and view["legal_moves"]
        src, dst = view["legal_moves"][0]
        await wes.send(type="move", **{"from": src, "to": dst})  # and the browser player's
        took, answer = await timed(tess.read(LIVE))
        assert answer[0] in (f.MOVED, f.BATTLE), answer
        if answer[0] == f.MOVED:
            assert answer[1:] == (src % 10, src // 10, dst % 10, dst // 10)
        await expect_board(tess, 0)
        print(f"browser move seen by the TCP player in {took:.3f} s")
        await olga.until(lambda fr: event("move")(fr) and fr["event"]["color"] == 1, LIVE)

        await wes.send(type="resign")
        await expect(tess, f.GAME_OVER, "tess")
        over = await olga.until(event("game_over"), LIVE)
        assert over["event"]["winner"] == 0
        assert await tess.closed()
        assert leak_checked(olga.frames, "olga") == 2 and leak_checked(wes.frames, "wes") == 1


def leak_checked(frames: list[dict], name: str) -> int:
    """Leak-check every frame with the role its socket had then: a state frame says it, and
    the socket's own `seated` event changes it (that frame already carries the seat's view)."""
    role = None
    for frame in frames:
        if frame.get("type") == "state":
            role = frame["role"]
        news = frame.get("event") or {}
        if news.get("kind") == "seated" and news.get("name") == name:
            role = news["seat"]
        if frame.get("type") in ("state", "event"):
            assert_no_leak(frame, role)
    return role


async def test_tcp_and_browser_play_live_on_the_embedded_default(tmp_path):
    server = EmbeddedDaphne(tmp_path).start()
    try:
        await asyncio.wait_for(live_game(server), 120)
    finally:
        server.stop()
    log = server.log_text()
    assert "in the web process" in log
    assert "Traceback" not in log and " ERROR " not in log, log


async def bots_and_tokens(server: EmbeddedDaphne) -> None:
    opener_token = manage(server.env, "bot_token", "sqlite_opener").strip()
    seeker_token = manage(server.env, "bot_token", "sqlite_seeker").strip()
    seeker = await bot_client(server, seeker_token, "--player", "random", "--variant", "mini")
    opener = await bot_client(server, opener_token, "--player", "random", "--create",
                              "--variant", "mini", "--clock", "5+3")  # fmt: skip
    opened, sought = await asyncio.gather(finished(opener, 120), finished(seeker, 120))
    game_id = opened.split("opened game ")[1].split()[0]
    assert f"game {game_id} over: {{'winner'" in sought, sought
    manage(server.env, "bot_token", "sqlite_seeker", "--revoke", seeker_token[:10])
    refused = await bot_client(server, seeker_token, "--player", "random")
    _, err = await asyncio.wait_for(refused.communicate(), 60)
    assert refused.returncode == 1 and b"HTTP 401 bad_token" in err, err


async def test_bots_open_accept_and_play_on_the_embedded_default(tmp_path):
    """Two bot clients on the embedded daphne: one opens a timed mini game, the other accepts
    it, they play it to the end; a revoked token is then refused."""
    server = EmbeddedDaphne(tmp_path).start()
    try:
        await asyncio.wait_for(bots_and_tokens(server), 240)
    finally:
        server.stop()
    assert "Traceback" not in server.log_text()


def test_the_terminal_plays_the_servers_computer_on_the_embedded_default(tmp_path):
    """`manage.py play --server` against the embedded daphne: the computer's moves come from
    its worker threads through the in-memory layer, up to a battle told in a sentence."""
    server = EmbeddedDaphne(tmp_path).start()
    try:
        game = spawn("--server", server.http, "--name", "termi", "--level", "random")
        game.expect(r"Playing game (\w+) on ")
        game.expect(PROMPT)
        game.sendline(" ".join(choose(board(game.before))))
        play_until_battle(game)
        game.sendline("QQ")
        game.expect(r"Save the game\? \(Y/N\): ")
        game.sendline("N")
        game.expect(pexpect.EOF)
    finally:
        server.stop()
    assert "Traceback" not in server.log_text()


async def leaver(server: EmbeddedDaphne) -> None:
    stays = await LegacyClient.connect("127.0.0.1", server.legacy_port)
    goes = await LegacyClient.connect("127.0.0.1", server.legacy_port)
    await stays.sign_on("stays")
    await expect(stays, f.WAIT, "wait")
    await goes.sign_on("goes")
    await expect(goes, f.CONNECTED, "connected")
    await expect(stays, f.CONNECTED, "connected")
    await place(stays, RED_SETUP[:3])
    bad = await LegacyClient.connect("127.0.0.1", server.legacy_port)
    await bad.send(f.java_int(99))  # an unknown frame type: that connection only is closed
    assert await bad.closed(5)
    await stays.setup(*RED_SETUP[3])
    await expect(stays, f.PLACEMENT_VALID, "valid")
    await goes.close()  # mid-setup: after the grace period (1 s here) the other side wins
    await expect(stays, f.GAME_OVER, "stays")
    assert await stays.closed()


async def test_a_tcp_player_who_leaves_loses_after_the_grace_period_in_daphne(tmp_path):
    server = EmbeddedDaphne(tmp_path, LEGACY_GRACE="1").start()
    try:
        await asyncio.wait_for(leaver(server), 60)
        query = (
            "from games.models import Game; g = Game.objects.get(red_name='stays'); "
            "print(g.status, g.winner, g.termination)"
        )
        stored = manage(server.env, "shell", "-v", "0", "-c", query).split()
    finally:
        server.stop()
    assert stored[:2] == ["finished", "0"], stored
    assert "Traceback" not in server.log_text()


def test_the_door_setting_is_read_strictly(monkeypatch, caplog):
    from games.transport.legacy import inprocess

    monkeypatch.delenv("LEGACY_PORT", raising=False)
    assert inprocess.configured() is None
    monkeypatch.setenv("LEGACY_PORT", "7001")
    monkeypatch.setenv("LEGACY_GRACE", "4")
    assert inprocess.configured() == ("127.0.0.1", 7001, 4.0)
    for bad in ("seven", "70000", "0"):
        monkeypatch.setenv("LEGACY_PORT", bad)
        assert inprocess.configured() is None
    assert "no TCP door" in caplog.text


def test_a_process_without_daphnes_loop_says_it_serves_no_door(monkeypatch, caplog):
    from games.transport.legacy import inprocess

    monkeypatch.setattr(inprocess, "NOT_RUNNING_AFTER", 0.05)
    inprocess.warn_if_never_started("127.0.0.1", 7001)  # (nothing started the door here)
    assert "serves no TCP door; run `manage.py serve_legacy" in caplog.text


def test_a_taken_door_port_is_said_and_the_pages_go_on(tmp_path):
    with socket.socket() as occupant:
        occupant.bind(("127.0.0.1", 0))
        occupant.listen()
        server = EmbeddedDaphne(tmp_path)
        server.legacy_port = occupant.getsockname()[1]
        server.env["LEGACY_PORT"] = str(server.legacy_port)
        server.start()
        try:
            with urllib.request.urlopen(server.http + "/", timeout=30) as page:
                assert page.status == 200
            for _ in range(100):
                if "could not listen" in server.log_text():
                    break
                time.sleep(0.1)
        finally:
            server.stop()
    log = server.log_text()
    assert f"the legacy TCP door could not listen on 127.0.0.1:{server.legacy_port}" in log
    assert "Traceback" not in log
