"""In a real browser: the language comes from the browser's Accept-Language, the header's
switch changes it for every page after, and the game client speaks it too."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from . import pages as P


def test_the_language_follows_the_browser_and_the_switch(server_url, new_context):
    page = new_context(locale="de-DE", extra_http_headers={"Accept-Language": "de"}).new_page()
    page.goto(server_url + "/")
    expect(page.locator("#start-title")).to_have_text("Stratego spielen")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.select_option("#language", "nl")
    expect(page.locator("#start-title")).to_have_text("Speel Stratego")
    page.click("#start-tutorial")
    expect(page.locator("h1")).to_have_text("Leer spelen")
    expect(page.locator("#lesson-say")).to_contain_text("Een stuk zet één veld tegelijk")
    page.click("#board .sq[data-square='2']")  # the client's words: the JavaScript catalogue
    expect(page.locator("#piece-info")).to_contain_text("Rood Sergeant (4): Verslaat de Mineur")
    page.select_option("#language", "fr")
    expect(page.locator("h1")).to_have_text("Apprendre à jouer")


# English words a Dutch page should not show (tests/i18n/test_pages_in_dutch.py has the list
# for the server's pages); the nicknames below are Dutch-neutral.
ENGLISH = re.compile(
    r"\b(the|and|your|you|to|game|move|moves|army|untimed|two-squares|classic|random|medium|"
    r"hard|Red|Blue|won|lost|Marshal|General|Colonel|Major|Captain|Lieutenant|Miner|Scout|"
    r"Spy|Bomb|Flag|vs|lake|selected|left|running|clock)\b"
)
# What a person reads on the page: its text and the readable attributes of what is shown.
READ = """() => [document.body.innerText,
  ...[...document.querySelectorAll('[aria-label], [title], [placeholder]')]
    .filter((el) => el.offsetParent !== null)
    .flatMap((el) => ['aria-label', 'title', 'placeholder'].map((a) => el.getAttribute(a)))
    .filter(Boolean)]"""


def english_on(page) -> list[str]:
    lines = [line for text in page.evaluate(READ) for line in text.splitlines()]
    return [line for line in lines if ENGLISH.search(line)]


def test_the_game_client_speaks_dutch_everywhere(server_url, new_context):
    """The lobby's rows (options, seats), a game against the computer (its name, the seats,
    the clock, the tray, the board's labels) in Dutch, with no English word left."""
    dutch = {"locale": "nl-NL", "extra_http_headers": {"Accept-Language": "nl"}}
    carla = new_context(**dutch).new_page()
    carla.goto(server_url + "/")
    carla.fill("#nickname", "carla")
    carla.click("#sign-on button[type=submit]")
    expect(carla.locator(".who .me")).to_contain_text("carla")
    carla.check("input[name=variant][value=classic]")
    carla.select_option("select[name=two_squares]", "3")
    carla.click("#create-game")
    carla.wait_for_url("**/games/*/")
    anna = new_context(**dutch).new_page()
    anna.goto(server_url + "/")
    row = anna.locator("#waiting .game-row").first
    expect(row.locator(".game-options")).to_have_text("zonder klok · tweevakkenregel 3")
    expect(row.locator(".game-title")).to_contain_text("klassiek · carla (gast, Rood)")
    assert english_on(anna) == []
    anna.fill("#nickname", "anna")
    anna.locator("#computer-form input[value='hard']").check()
    anna.locator("#computer-form select[name=variant]").select_option("mini")
    anna.locator("#computer-form select[name=seat]").select_option("0")
    anna.click("#play-computer")
    anna.wait_for_url("**/games/*/")
    expect(anna.locator("#seat-1 .name")).to_contain_text("Computer (moeilijk)")
    expect(anna.locator("#tray .tray-item").first).to_be_visible()
    assert english_on(anna) == []
    anna.click("#btn-random")
    anna.click("#btn-ready")
    P.wait_phase(anna, "playing")
    anna.locator("#board .sq.occupied").first.click()
    assert english_on(anna) == []
