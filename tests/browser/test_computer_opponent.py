"""In a real browser: a person plays the computer from the lobby, and watches two computers."""

from __future__ import annotations

import random

from playwright.sync_api import expect

from . import pages as P


def test_a_person_plays_the_computer_from_the_lobby(server_url, new_context):
    page = new_context().new_page()
    P.sign_on(page, server_url, "challenger")
    form = page.locator("#computer form").first
    form.locator("select[name=variant]").select_option("mini")
    form.locator("select[name=seat]").select_option("0")
    page.click("#play-computer")
    page.wait_for_url("**/games/*/")
    expect(page.locator("#seat-1 .name")).to_contain_text("Computer")
    page.click("#btn-random")
    expect(page.locator("#btn-ready")).to_be_enabled()
    page.click("#btn-ready")
    P.wait_phase(page, "playing")
    rng = random.Random(8)
    for ply in (1, 3):
        if P.game_state(page)["game"]["status"] != "playing":
            break
        expect(page.locator("#game")).to_have_attribute("data-turn", "0", timeout=20_000)
        P.play_move(page, rng, "click")
        # The computer answers through the same socket events as a person would.
        expect(page.locator("#move-list .mv.blue")).to_have_count((ply + 1) // 2, timeout=20_000)


def test_two_computers_can_be_watched(server_url, new_context):
    page = new_context().new_page()
    P.sign_on(page, server_url, "spectator")
    page.locator("#watch-form summary").click()
    page.select_option("#watch-variant", "mini")
    page.click("#watch-computers")
    page.wait_for_url("**/games/*/")
    expect(page.locator("#status")).to_contain_text("Watching")
    expect(page.locator("#move-list .mv")).not_to_have_count(0, timeout=30_000)
