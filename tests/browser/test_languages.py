"""In a real browser: the language comes from the browser's Accept-Language, the header's
switch changes it for every page after, and the game client speaks it too."""

from __future__ import annotations

from playwright.sync_api import expect


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
