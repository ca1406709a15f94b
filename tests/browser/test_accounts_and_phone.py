"""In a real browser: an account keeps its setups on the server; the pages fit a phone."""

from __future__ import annotations

from playwright.sync_api import expect

from games.domain.models import SavedSetup

from . import pages as P


def test_an_account_saves_a_setup_on_the_server_and_loads_it(server_url, new_context):
    page = new_context().new_page()
    page.goto(f"{server_url}/accounts/signup/")
    page.fill("#id_username", "setupfan")
    page.fill("#id_password1", "a-long-pass-9731")
    page.fill("#id_password2", "a-long-pass-9731")
    page.locator("form button[type=submit]").click()
    expect(page.locator(".who .me")).to_contain_text("setupfan")
    P.create_game(page, "mini", seat="1")
    page.click("#btn-random")
    expect(page.locator("#btn-ready")).to_be_enabled()
    page.locator("#setup-panel details.saved summary").click()
    page.fill("#setup-name", "fortress")
    page.click("#btn-save")
    expect(page.locator("#setup-note")).to_contain_text("to your account")
    saved = SavedSetup.objects.get(user__username="setupfan", variant="mini")
    assert saved.name == "fortress"
    placed = {
        int(el.get_attribute("data-square")): el.get_attribute("aria-label")
        for el in page.locator("#board .sq:has(.piece.blue)").all()
    }

    # A new browser (no localStorage) logged in as the same account finds it on the server.
    other = new_context().new_page()
    other.goto(f"{server_url}/accounts/login/")
    other.fill("#id_username", "setupfan")
    other.fill("#id_password", "a-long-pass-9731")
    other.locator("form button[type=submit]").click()
    other.goto(page.url)
    other.locator("#setup-panel details.saved summary").click()
    expect(other.locator("#saved-setups option")).to_have_text(["fortress"])
    other.click("#btn-clear")
    expect(other.locator("#board .piece.blue")).to_have_count(0)
    other.click("#btn-load")
    expect(other.locator("#board .piece.blue")).to_have_count(10)
    for square, label in placed.items():
        expect(other.locator(f"#board .sq[data-square='{square}']")).to_have_attribute(
            "aria-label", label
        )


def test_the_board_fits_a_phone_screen(server_url, new_context):
    page = new_context(viewport={"width": 375, "height": 740}).new_page()
    P.sign_on(page, server_url, "pocket")
    P.create_game(page, "classic")
    board = page.locator("#board").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= 375
    assert board["width"] > 300, "the board should use the phone's width"
    cells = page.locator("#board .sq")
    expect(cells).to_have_count(100)
    first = cells.first.bounding_box()
    assert abs(first["width"] - first["height"]) < 1.5, "squares stay square"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways ({width}px)"
    page.click("#btn-random")
    expect(page.locator("#board .piece.red")).to_have_count(40)
    P.shot(page, "phone_setup")
