"""In Chromium, on the embedded default as `make run` serves it (a SQLite file, the in-memory
channel layer, the TCP door inside daphne): a TCP player waits in the lobby, a browser player
joins from there, and they play each other live while a second page watches."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from games.transport.legacy import frames as f
from tests.browser import pages as P
from tests.browser.conftest import new_context  # noqa: F401 - fixtures

from .embedded import EmbeddedDaphne
from .test_doors_browser import TcpPlayer, no_hidden_rank

LIVE_MS = 10_000  # a move shows this soon, or never (no page polls)


@pytest.fixture
def embedded(tmp_path):
    server = EmbeddedDaphne(tmp_path).start()
    yield server
    server.stop()
    assert "Traceback" not in server.log_text()


def test_a_tcp_player_and_a_browser_player_on_make_runs_server(embedded, new_context):  # noqa: F811
    tina = TcpPlayer(embedded.legacy_port)
    tina.start()
    assert tina.waiting.wait(30), tina.error
    wanda = new_context().new_page()
    P.sign_on(wanda, embedded.http, "wanda")
    row = wanda.locator("#waiting .game-row", has_text="tina")
    expect(row).to_be_visible()
    game_id = row.get_attribute("data-game-id")
    P.join_from_lobby(wanda, game_id)
    watcher = new_context().new_page()
    watcher.goto(f"{embedded.http}/games/{game_id}/")
    wanda.click("#btn-random")
    expect(wanda.locator("#btn-ready")).to_be_enabled()
    wanda.click("#btn-ready")
    expect(wanda.locator("#game")).to_have_attribute("data-phase", "playing", timeout=60_000)
    for page in (wanda, watcher):  # tina's move from the TCP door, live in both pages
        expect(page.locator("#move-list .mv")).to_have_count(1, timeout=LIVE_MS)
    P.play_move(wanda, random.Random(11), P.MOVE_WAYS[0])
    expect(watcher.locator("#move-list .mv")).to_have_count(2, timeout=LIVE_MS)
    for page in (wanda, watcher):
        no_hidden_rank(P.game_state(page))
    wanda.click("#btn-resign")
    wanda.click("#btn-resign-yes")
    tina.join(60)
    assert tina.error is None, tina.error
    assert [frame[0] for frame in tina.frames][:2] in ([f.MOVED, f.BOARD], [f.BATTLE, f.BOARD])
    assert tina.frames[2] == (f.GAME_OVER, "tina")
    expect(watcher.locator("#game")).to_have_attribute("data-phase", "finished", timeout=LIVE_MS)
