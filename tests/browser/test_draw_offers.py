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
    P.join_from_lobby(blue, game_id)
    P.ready_with_random_setups(red, blue)

    red.click("#btn-draw")
    expect(red.locator("#draw-pending")).to_be_visible()
    expect(blue.locator("#draw-offer")).to_be_visible()
    blue.click("#btn-draw-decline")
    expect(red.locator("#draw-pending")).to_be_hidden()
    expect(blue.locator("#draw-offer")).to_be_hidden()
    # The offerer is told, and may not offer again at once.
    expect(red.locator("#notices")).to_contain_text("Your draw offer was declined.")
    red.click("#btn-draw")
    expect(red.locator("#notices .notice.error")).to_contain_text("offer a draw again after")
    expect(blue.locator("#draw-offer")).to_be_hidden()

    blue.click("#btn-draw")
    expect(red.locator("#draw-offer")).to_be_visible()
    red.click("#btn-draw-accept")
    for page in (red, blue):
        expect(page.locator("#banner")).to_contain_text("Draw: a draw was agreed")
        expect(page.locator("#board .piece.hidden")).to_have_count(0)
