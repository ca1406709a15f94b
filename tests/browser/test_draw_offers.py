"""In a real browser: a draw is offered, declined, offered again and accepted."""

from __future__ import annotations

from playwright.sync_api import expect

from . import pages as P


def test_a_draw_offered_declined_and_then_accepted(server_url, new_context):
    red = new_context().new_page()
    blue = new_context().new_page()
    P.sign_on(red, server_url, "dove")
    game_id = P.create_game(red, "mini")
    P.sign_on(blue, server_url, "olive")
    P.lobby_row(blue, "waiting", game_id).locator("button.join").click()
    blue.wait_for_url(f"**/games/{game_id}/")
    for page in (red, blue):
        page.click("#btn-random")
        expect(page.locator("#btn-ready")).to_be_enabled()
        page.click("#btn-ready")
    for page in (red, blue):
        P.wait_phase(page, "playing")

    red.click("#btn-draw")
    expect(red.locator("#draw-pending")).to_be_visible()
    expect(blue.locator("#draw-offer")).to_be_visible()
    blue.click("#btn-draw-decline")
    expect(red.locator("#draw-pending")).to_be_hidden()
    expect(blue.locator("#draw-offer")).to_be_hidden()

    blue.click("#btn-draw")
    expect(red.locator("#draw-offer")).to_be_visible()
    red.click("#btn-draw-accept")
    for page in (red, blue):
        expect(page.locator("#banner")).to_contain_text("Draw: a draw was agreed")
        expect(page.locator("#board .piece.hidden")).to_have_count(0)
