"""In Chromium: Alice creates a Swiss on the events page, adds two computer levels and
enters; her friend Bob enters; a spectator follows the standings. When the event starts,
Alice and Bob are taken to their games (the tab's title says so); the spectator sees the
games and, once both are decided in the browser, the final podium, live; Alice finds the
event on her profile."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tournaments import events
from tournaments.models import Tournament

from . import pages as P

WATCH_TITLE = """() => new MutationObserver(() => sessionStorage.setItem('title', document.title))
    .observe(document.querySelector('title'), {childList: true})"""


def log_in(page, server_url: str, name: str) -> None:
    get_user_model().objects.create_user(name, password="a-long-pass-9731")
    page.goto(f"{server_url}/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", "a-long-pass-9731")
    page.locator("form button[type=submit]").click()
    expect(page.locator(".who .me")).to_contain_text(name)


def test_two_people_and_a_spectator_follow_a_swiss_and_are_taken_to_their_games(
    server_url, new_context
):
    alice, bob, spectator = (new_context().new_page() for _ in range(3))
    errors: list[str] = []
    for page in (alice, bob, spectator):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(alice, server_url, "t-alice")
    log_in(bob, server_url, "t-bob")

    alice.goto(f"{server_url}/tournaments/")
    alice.fill("#t-name", "Browser Swiss")
    alice.select_option("#t-variant", "mini")
    alice.fill("#t-rounds", "1")
    alice.click("#t-create-button")
    alice.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    for level in ("random", "medium"):
        alice.select_option("#t-level", level)
        alice.click("#t-add-computer")
    alice.click("#t-enter")
    expect(alice.locator("#t-entered")).to_be_visible()
    event_url = alice.url

    bob.goto(event_url)
    bob.click("#t-enter")
    spectator.goto(event_url)
    expect(spectator.locator("#t-standings tbody tr")).to_have_count(4)
    expect(spectator.locator("#t-status")).to_contain_text("4 entered")
    P.shot(spectator, "tournament_upcoming")

    for page in (alice, bob):  # the tab's title as the page changes it (kept across pages)
        page.goto(event_url)
        page.evaluate(WATCH_TITLE)
    swiss = Tournament.objects.get(name="Browser Swiss")
    chosen = events.settings_of(swiss)
    chosen.starts_at = swiss.created  # start now (the creator's edit, through the service)
    events.edit(swiss.pk, swiss.created_by, chosen)

    for page in (alice, bob):  # taken to their games, told by the tab's title first
        page.wait_for_url(re.compile(r"/games/[a-z0-9]+/$"), timeout=P.TIMEOUT_MS)
        assert page.evaluate("sessionStorage.getItem('title')").startswith("▶ Your game starts")
    expect(spectator.locator("#t-current .t-games li")).to_have_count(2)
    expect(spectator.locator("#t-status")).to_contain_text("Round 1 of 1")
    P.shot(spectator, "tournament_running")

    for page in (alice, bob):
        P.ready_with_random_setups(page)
        page.click("#btn-resign")
        page.click("#btn-resign-yes")
        P.wait_phase(page, "finished")

    # both winners share first place, both losers third: all four on the podium
    expect(spectator.locator("#t-podium li")).to_have_count(4, timeout=P.TIMEOUT_MS)
    expect(spectator.locator("#t-status")).to_contain_text("Finished")
    expect(spectator.locator("#t-current")).to_have_count(0)
    P.shot(spectator, "tournament_finished")

    alice.goto(f"{server_url}/players/t-alice/")
    row = alice.locator("#events .event-row")
    expect(row).to_contain_text("Browser Swiss")
    expect(row).to_contain_text("of 4")
    assert errors == []
