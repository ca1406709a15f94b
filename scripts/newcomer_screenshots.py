"""A newcomer's first steps on a phone, in Dutch, as screenshots (docs/screenshots/newcomer/):
the lobby, a tutorial lesson, the rules, a game against the computer, and a game against a
person found with "Play now". Needs a running server (make run) and Chromium.

    .venv/bin/python scripts/newcomer_screenshots.py --base http://127.0.0.1:8000
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots" / "newcomer"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "locale": "nl-NL", "extra_http_headers": {"Accept-Language": "nl"}}  # fmt: skip


def shot(page, name: str) -> None:
    page.wait_for_timeout(400)
    page.screenshot(path=str(OUT / f"{name}.png"))


def play_a_move(page) -> None:
    """A legal move of the page's own (from the server's view), by two taps."""
    handle = page.wait_for_function(
        "() => { const s = window.strategoGame.state; const v = s.view;"
        " return v && v.phase === 'playing' && v.turn === s.role && v.legal_moves.length"
        " ? v.legal_moves[v.legal_moves.length - 1] : null; }",
        timeout=30_000,
    )
    src, dst = handle.json_value()
    page.locator(f"#board .sq[data-square='{src}']").tap()
    page.locator(f"#board .sq[data-square='{dst}']").tap()
    page.wait_for_function(f"() => window.strategoGame.state.view.board[{src}] === null")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="http://127.0.0.1:8000")
    base = parser.parse_args().base.rstrip("/")
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        anna = browser.new_context(**PHONE).new_page()
        anna.goto(base + "/")
        shot(anna, "01_lobby")

        anna.locator("#start-tutorial").tap()
        anna.locator("#board .sq[data-square='2']").tap()
        shot(anna, "02_lesson_moving")  # the Sergeant chosen: where it may go
        for here, there in ((None, 7), (7, 12), (12, 17)):
            if here is not None:
                anna.locator(f"#board .sq[data-square='{here}']").tap()
            anna.locator(f"#board .sq[data-square='{there}']").tap()
            expect(anna.locator(f"#board .sq[data-square='{there}'] .piece")).to_be_visible()
        expect(anna.locator("#tutorial")).to_have_attribute("data-status", "done")
        shot(anna, "03_lesson_done")
        anna.goto(base + "/learn/?lesson=bombs")
        anna.locator("#board .sq[data-square='11']").tap()
        shot(anna, "04_lesson_bombs")
        anna.goto(base + "/learn/rules/")
        anna.locator("[data-diagram='scout']").scroll_into_view_if_needed()
        shot(anna, "05_rules")

        # Play the computer: a nickname and the form in one go.
        anna.goto(base + "/")
        anna.fill("#nickname", "Anna")
        anna.locator("#computer-form input[value='random']").check()
        anna.locator("#computer-form select[name=variant]").select_option("mini")
        anna.locator("#computer-form select[name=seat]").select_option("0")
        anna.locator("#play-computer").tap()
        anna.wait_for_url(re.compile(r"/games/\w+/$"))
        expect(anna.locator("#tray .tray-item").first).to_be_visible()
        shot(anna, "06_computer_setup")
        anna.locator("#btn-random").tap()
        anna.locator("#btn-ready").tap()
        play_a_move(anna)
        play_a_move(anna)
        shot(anna, "07_computer_playing")

        # Play a person: "Play now" on the phone, Bram on a desktop asks for the same game.
        anna.goto(base + "/")
        anna.select_option("#play-now-variant", "mini")
        anna.locator("#play-now-button").tap()
        expect(anna.locator("#seek")).to_be_visible()
        shot(anna, "08_waiting_for_a_person")
        bram = browser.new_context(locale="nl-NL").new_page()
        bram.goto(base + "/")
        bram.fill("#nickname", "Bram")
        bram.select_option("#play-now-variant", "mini")
        bram.click("#play-now-button")
        anna.wait_for_url(re.compile(r"/games/\w+/$"), timeout=30_000)
        bram.wait_for_url(re.compile(r"/games/\w+/$"), timeout=30_000)
        for page in (anna, bram):
            page.locator("#btn-random").click()
            page.locator("#btn-ready").click()
        bram.fill("#chat-input", "Veel succes!")
        bram.press("#chat-input", "Enter")
        expect(anna.locator("#chat-unread")).to_have_text("1")
        shot(anna, "09_person_playing")
        anna.locator("#dock-chat").tap()
        shot(anna, "10_person_chat")
        browser.close()


if __name__ == "__main__":
    main()
