"""In Chromium: a TCP player (serve_legacy, its own process) waits in the browser's lobby, a
browser player joins it from there and they play each other, each in its own protocol,
while a browser observer watches live; the lobby marks a bot's seat BOT."""

from __future__ import annotations

import asyncio
import random
import socket
import subprocess
import sys
import threading
import time

import pytest
from playwright.sync_api import expect

from botapi.tokens import make_bot
from games import services
from games.domain.identity import Identity
from games.domain.models import Game
from games.transport.legacy import frames as f
from games.transport.legacy.client import LegacyClient
from tests.browser import pages as P
from tests.browser.conftest import (  # noqa: F401 - fixtures
    ROOT,
    browser_database,
    new_context,
    server,
    server_url,
    shared_db,
)
from tests.server.daphne import free_port

from .legacy_script import RED_SETUP, expect_board, place
from .legacy_script import expect as expect_frame

LEGACY_PORT = free_port()


@pytest.fixture(scope="module")
def legacy_port(server):  # noqa: F811 - the fixture above
    """serve_legacy beside the browser tests' daphne: same database, same Redis layer."""
    log = open(ROOT / "artifacts" / "serve_legacy.log", "a")  # noqa: SIM115
    command = [sys.executable, "manage.py", "serve_legacy", "--port", str(LEGACY_PORT)]
    process = subprocess.Popen(command, cwd=ROOT, env=server.env, stdout=log, stderr=log)
    for _ in range(150):
        try:
            socket.create_connection(("127.0.0.1", LEGACY_PORT), timeout=1).close()
            break
        except OSError:
            assert process.poll() is None, "serve_legacy exited"
            time.sleep(0.2)
    yield LEGACY_PORT
    process.terminate()
    process.wait(10)
    log.close()


class TcpPlayer(threading.Thread):
    """Tina, on the TCP door, in a thread of her own: waits, sets up, makes one move, reads
    the browser player's move, then the end."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.waiting = threading.Event()
        self.frames: list[tuple] = []
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            asyncio.run(self.play())
        except BaseException as exc:  # reported by the test
            self.error = exc

    async def play(self) -> None:
        tina = await LegacyClient.connect("127.0.0.1", self.port)
        await tina.sign_on("tina")
        await expect_frame(tina, f.WAIT, "wait")
        self.waiting.set()
        got = await tina.read(60)
        assert got == (f.CONNECTED, "connected"), got
        await place(tina, RED_SETUP)
        await tina.ready()
        got = await tina.read(60)
        assert got == (f.PLAYING, "tina"), got
        await expect_board(tina, 0)
        await tina.move(1, 3, 1, 4)
        await expect_frame(tina, f.MOVED, 1, 3, 1, 4)
        await expect_board(tina, 0)
        for _ in range(3):  # the browser player's move (a Move or a Battle), its Board, the end
            self.frames.append(await tina.read(60))
        await tina.close()


def no_hidden_rank(state: dict) -> None:
    view = state["view"]
    for piece in view["board"]:
        if piece and piece["color"] != state["role"] and piece["rank"] is not None:
            assert piece["revealed"] or view["phase"] == "finished", piece


def test_a_tcp_player_and_a_browser_player_play_while_a_browser_watches(
    server_url,  # noqa: F811 - fixtures
    legacy_port,
    new_context,  # noqa: F811
):
    tina = TcpPlayer(legacy_port)
    tina.start()
    assert tina.waiting.wait(30), tina.error
    game_id = Game.objects.get(red_name="tina", status="waiting").public_id
    wanda = new_context().new_page()
    P.sign_on(wanda, server_url, "wanda")
    expect(P.lobby_row(wanda, "waiting", game_id)).to_contain_text("tina")
    P.join_from_lobby(wanda, game_id)
    watcher = new_context().new_page()
    watcher.goto(f"{server_url}/games/{game_id}/")
    wanda.click("#btn-random")
    expect(wanda.locator("#btn-ready")).to_be_enabled()
    wanda.click("#btn-ready")
    # play starts once tina's forty placements (forty TCP round trips) are in: on a loaded
    # machine that can take longer than a page's usual wait
    expect(wanda.locator("#game")).to_have_attribute("data-phase", "playing", timeout=60_000)
    for page in (wanda, watcher):  # tina's move, from the TCP door, live in both pages
        expect(page.locator("#move-list .mv")).to_have_count(1, timeout=30_000)
    P.play_move(wanda, random.Random(11), P.MOVE_WAYS[0])
    expect(watcher.locator("#move-list .mv")).to_have_count(2)
    for page in (wanda, watcher):
        no_hidden_rank(P.game_state(page))
    wanda.click("#btn-resign")
    wanda.click("#btn-resign-yes")
    tina.join(60)
    assert tina.error is None, tina.error
    kinds = [frame[0] for frame in tina.frames]
    assert kinds[0] in (f.MOVED, f.BATTLE) and kinds[1] == f.BOARD
    assert tina.frames[2] == (f.GAME_OVER, "tina")
    expect(watcher.locator("#game")).to_have_attribute("data-phase", "finished")
    game = Game.objects.get(public_id=game_id)
    assert (game.blue_name, game.winner, game.termination) == ("wanda", 0, "resignation")


def test_the_lobby_marks_a_bots_seat_bot(server_url, new_context):  # noqa: F811
    bot, _ = make_bot("lobbybot")
    game = services.create_game(Identity(bot.user.pk, None, "lobbybot"), "mini", 0)
    page = new_context().new_page()
    page.goto(server_url + "/")
    row = P.lobby_row(page, "waiting", game.public_id)
    expect(row.locator(".bot-mark")).to_have_text("BOT")  # drawn from the page's own lists
    expect(page.locator("[data-loaded='1']")).to_have_count(1)  # the lobby socket's lists came
    person = new_context().new_page()
    P.sign_on(person, server_url, "lobbyperson")
    other = P.create_game(person, "mini")  # the lobby's lists are sent again, drawn by lobby.js
    expect(P.lobby_row(page, "waiting", other)).to_be_visible()
    expect(row.locator(".bot-mark")).to_have_text("BOT")
    expect(P.lobby_row(page, "waiting", other).locator(".bot-mark")).to_have_count(0)
