"""In a real browser: an opponent joining, a draw offer and a rematch offer each play a sound
and mark the tab's title and icon until the page is used; muted, they play nothing."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from . import pages as P


def played(page) -> list[str]:
    return page.evaluate("() => [...window.strategoSounds.played]")


def test_join_draw_and_rematch_call_for_attention(server_url, new_context):
    red = new_context().new_page()
    blue = new_context().new_page()
    P.sign_on(red, server_url, "alert")
    game_id = P.create_game(red, "mini")
    icon = red.evaluate("document.getElementById('favicon').href")
    P.sign_on(blue, server_url, "bell")
    P.join_from_lobby(blue, game_id)
    expect(red).to_have_title(re.compile(r"^● Your opponent has joined · "))
    assert "joined" in played(red)
    assert red.evaluate("document.getElementById('favicon').href").startswith("data:image/svg")
    red.mouse.click(5, 5)  # the page is used: the mark goes
    expect(red).not_to_have_title(re.compile("^●"))
    assert red.evaluate("document.getElementById('favicon').href") == icon

    P.ready_with_random_setups(red, blue)
    red.click("#btn-draw")
    expect(blue.locator("#draw-offer")).to_be_visible()
    expect(blue).to_have_title(re.compile(r"^● A draw is offered · "))
    assert "draw" in played(blue)

    # Muted, the rematch offer marks the title but plays nothing.
    red.evaluate("() => localStorage.setItem('stratego.sound', 'off')")
    blue.click("#btn-draw-decline")
    blue.click("#btn-resign")
    blue.click("#btn-resign-yes")
    expect(red.locator("#banner")).to_be_visible()
    assert "over" not in played(red)
    blue.click("#btn-rematch")
    expect(red.locator("#rematch-answer")).to_be_visible()
    expect(red).to_have_title(re.compile(r"^● A rematch is offered · "))
    assert "rematch" not in played(red)
    assert "over" in played(blue)
