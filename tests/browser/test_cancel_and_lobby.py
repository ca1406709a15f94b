"""In a real browser: a game cancelled before anyone joined says so everywhere and offers
nothing to replay; the lobby's first page load already lists seats and Join buttons, with
the socket blocked and even with JavaScript off."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games.domain.models import Game

from . import pages as P

# A WebSocket that never connects: the lobby as it is before (or without) its socket.
NO_SOCKET = """
window.WebSocket = class {
  static OPEN = 1;
  constructor() { this.readyState = 0; }
  addEventListener() {}
  send() {}
  close() {}
};
"""


def test_a_cancelled_game_says_so_and_has_nothing_to_replay(server_url, new_context):
    page = new_context().new_page()
    P.sign_on(page, server_url, "changed-mind")
    game_id = P.create_game(page, "classic")
    page.click("#btn-resign")
    expect(page.locator("#resign-question")).to_have_text("Really cancel this game?")
    expect(page.locator("#btn-resign-yes")).to_have_text("Yes, cancel the game")
    page.click("#btn-resign-yes")
    banner = page.locator("#banner")
    expect(banner).to_contain_text("This game was cancelled before it started.")
    expect(banner).not_to_contain_text("Draw")
    expect(banner).not_to_contain_text("abandoned")
    expect(page.locator("#replay-link")).to_be_hidden()
    assert Game.objects.get(public_id=game_id).status == Game.Status.ABORTED

    # The replay page says there is nothing to replay, and every step is disabled.
    page.goto(f"{server_url}/games/{game_id}/replay/")
    expect(page.locator("#position")).to_have_text(
        "This game was cancelled before it started: there is nothing to replay."
    )
    for button in ("#btn-first", "#btn-prev", "#btn-next", "#btn-last"):
        expect(page.locator(button)).to_be_disabled()
    expect(page.locator("#move-list")).to_have_text("No moves.")
    # Classic has a StraDoS2 game type: the note says why there is no record, not the type.
    expect(page.locator("#no-xml")).to_have_text(
        "No StraDoS2 XML: the game was cancelled before it started"
    )
    page.keyboard.press("End")
    expect(page.locator("#replay")).to_have_attribute("data-ply", "0")

    # The lobby lists it as cancelled, with no Replay link.
    page.goto(server_url + "/")
    expect(page.locator("#lists")).to_have_attribute("data-loaded", "1")
    row = P.lobby_row(page, "finished", game_id)
    expect(row.locator(".game-meta")).to_have_text("cancelled before it started")
    expect(row.locator("a.replay")).to_have_count(0)
    P.shot(page, "lobby_cancelled")


def lobby_rows(page) -> list[str]:
    return [
        re.sub(r"\s+", " ", text).strip()
        for text in page.locator("#lists .game-row").all_inner_texts()
    ]


def test_the_lobby_lists_seats_and_join_buttons_before_its_socket(server_url, new_context):
    host = new_context().new_page()
    P.sign_on(host, server_url, "early-host")
    game_id = P.create_game(host, "barrage")

    # With the socket never connecting, the first load shows the seats and a Join button.
    context = new_context()
    context.add_init_script(NO_SOCKET)
    guest = context.new_page()
    P.sign_on(guest, server_url, "early-guest")
    row = P.lobby_row(guest, "waiting", game_id)
    title = "barrage · early-host (guest, Red) vs free (Blue)"
    expect(row.locator(".game-title")).to_have_text(title)
    expect(row.locator(".game-meta")).to_have_text("waiting for an opponent")
    expect(row.locator("button.join")).to_be_visible()
    expect(guest.locator("#lists")).not_to_have_attribute("data-loaded", "1")
    assert any(title in row for row in lobby_rows(guest))

    # With JavaScript off the forms still sign a visitor on; no row is drawn.
    plain = new_context(java_script_enabled=False).new_page()
    plain.goto(server_url + "/")
    plain.fill("#nickname", "no-script")
    plain.click("text=Play as guest")
    expect(plain.locator(".who .me")).to_contain_text("no-script")
    assert lobby_rows(plain) == []  # (its <noscript> note: tests/review/test_review_views.py)

    # The Join button of the first load works without the socket.
    row.locator("button.join").click()
    guest.wait_for_url(f"**/games/{game_id}/")
    game = Game.objects.get(public_id=game_id)
    assert game.blue_name == "early-guest"
