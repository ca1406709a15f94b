"""In Chromium: two new accounts press "Play now" and meet in one rated game; the result is
on the profile (history and chart) and the leaderboard; the lobby names players with their
rating and says a game is rated."""

from __future__ import annotations

import random
import re

from playwright.sync_api import expect

from players.models import Rating

from . import pages as P


def sign_up(page, server_url: str, name: str) -> None:
    page.goto(f"{server_url}/accounts/signup/")
    page.fill("#id_username", name)
    page.fill("#id_password1", "a-long-pass-9731")
    page.fill("#id_password2", "a-long-pass-9731")
    page.locator("form button[type=submit]").click()
    expect(page.locator(".who .me")).to_contain_text(name)


def play_now(page, variant: str = "mini") -> None:
    page.select_option("#play-now-variant", variant)
    page.click("#play-now-button")


def test_play_now_pairs_two_accounts_and_the_rated_result_shows_everywhere(server_url, new_context):
    alice, bob = new_context().new_page(), new_context().new_page()
    errors: list[str] = []
    for page in (alice, bob):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_up(alice, server_url, "rated-alice")
    sign_up(bob, server_url, "rated-bob")

    # Alice waits; Bob's "Play now" pairs them; Alice's waiting page follows into the game.
    play_now(alice)
    expect(alice.locator("#seek h1")).to_have_text("Looking for an opponent")
    expect(alice.locator("#seek-range")).to_contain_text("±100")
    P.shot(alice, "ratings_play_now_waiting")
    play_now(bob)
    bob.wait_for_url(re.compile(r"/games/[a-z0-9]+/$"))
    alice.wait_for_url(bob.url, timeout=P.TIMEOUT_MS)
    game_id = bob.url.rstrip("/").rsplit("/", 1)[-1]

    P.ready_with_random_setups(alice, bob)
    red = alice if P.game_state(alice)["role"] == 0 else bob
    P.play_move(red, random.Random(13), pick=P.forward_first)  # one move: a replay to link
    bob.wait_for_function("() => window.strategoGame.state.game.ply >= 1")
    bob.click("#btn-resign")
    bob.click("#btn-resign-yes")
    P.wait_phase(alice, "finished")

    mine = Rating.objects.get(user__username="rated-alice", variant="mini")
    theirs = Rating.objects.get(user__username="rated-bob", variant="mini")
    assert mine.games == theirs.games == 1 and mine.rating > 1500 > theirs.rating

    # The profile: the rating (provisional), its chart, the game with a link to its replay.
    alice.goto(f"{server_url}/players/rated-alice/")
    story = alice.locator(".variant-story[data-variant='mini']")
    expect(story.locator("h2 .rating-value")).to_have_text(mine.label)
    expect(story.locator("svg.rating-chart circle")).to_have_count(2)
    row = alice.locator(f".history-row[data-game-id='{game_id}']")
    expect(row).to_contain_text("rated-bob")
    expect(row).to_contain_text("won")
    expect(row.locator("a.replay")).to_have_attribute("href", f"/games/{game_id}/replay/")
    expect(alice.locator("#setups")).to_be_visible()  # her own profile
    P.shot(alice, "ratings_profile")

    alice.click("#nav-players")
    alice.click(".board-tabs >> text=mini")
    expect(alice.locator("tr.leader")).to_have_count(2)
    expect(alice.locator("tr.leader").first).to_have_attribute("data-name", "rated-alice")
    P.shot(alice, "ratings_leaderboard")

    # The lobby: Bob watches the list; Alice's new rated game appears with her rating.
    bob.goto(server_url + "/")
    expect(bob.locator("#lists")).to_have_attribute("data-loaded", "1")
    alice.goto(server_url + "/")
    alice.fill("#rating-min", "1200")
    alice.fill("#rating-max", "1900")
    new_id = P.create_game(alice, "mini")
    row = P.lobby_row(bob, "waiting", new_id)
    expect(row.locator(".game-title")).to_have_text(
        f"mini · rated-alice {mine.label} (Red) vs free (Blue)"
    )
    expect(row.locator(".game-rating-note")).to_have_text("rated · 1200-1900")
    P.shot(bob, "ratings_lobby")
    # Bob (now below 1500 but within the range) joins; the row on a fresh load says the same.
    bob.reload()
    expect(P.lobby_row(bob, "waiting", new_id).locator(".game-rating-note")).to_have_text(
        "rated · 1200-1900"
    )
    # A guest sees the rated game but no Join button, drawn by the socket as by the server.
    visitor = new_context().new_page()
    P.sign_on(visitor, server_url, "just-looking")
    expect(visitor.locator("#lists")).to_have_attribute("data-loaded", "1")
    guest_row = P.lobby_row(visitor, "waiting", new_id)
    expect(guest_row.locator(".accounts-only")).to_have_text("accounts only")
    expect(guest_row.locator("button.join")).to_have_count(0)
    assert errors == []
