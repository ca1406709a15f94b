"""In a real browser: a newcomer goes from the lobby to a finished first lesson within a
minute, taps pieces to learn what they do, and is told why a move is refused."""

from __future__ import annotations

import time

from playwright.sync_api import expect


def test_a_newcomer_finishes_the_first_lesson_from_the_lobby(server_url, new_context):
    page = new_context(viewport={"width": 390, "height": 844}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    began = time.monotonic()
    page.goto(server_url + "/")
    page.click("#start-tutorial")
    tutorial = page.locator("#tutorial")
    expect(tutorial).to_have_attribute("data-lesson", "moving")
    page.click("#board .sq[data-square='20']")  # the other side's piece: what it does
    expect(page.locator("#piece-info")).to_contain_text("Blue Lieutenant (5): Beats the Sergeant")
    page.click("#board .sq[data-square='2']")
    expect(page.locator("#board .sq.target")).to_have_count(3)  # the engine's legal moves
    page.click("#board .sq[data-square='8']")  # diagonal: the engine says no
    expect(page.locator("#lesson-refused")).to_contain_text("diagonally")
    for here, there in ((2, 7), (7, 12), (12, 17)):
        page.click(f"#board .sq[data-square='{here}']")
        page.click(f"#board .sq[data-square='{there}']")
        expect(page.locator(f"#board .sq[data-square='{there}'] .piece.red")).to_be_visible()
    expect(tutorial).to_have_attribute("data-status", "done")
    expect(page.locator("#try-it")).to_be_visible()
    assert time.monotonic() - began < 60
    expect(page.locator("#lesson-list a.done")).to_have_count(1)
    page.click("#btn-next-lesson")
    expect(tutorial).to_have_attribute("data-lesson", "scout")
    assert errors == []
