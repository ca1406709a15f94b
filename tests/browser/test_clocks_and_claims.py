"""In a real browser: the clocks of a timed game (both players and a watcher on a phone see
them count down; the mover's clock changes after a move; a flag falls), and a victory
claimed over an opponent who closed their page. Time is moved on the server by writing the
game's timestamps into the past, and in the page by Playwright's clock: nobody waits."""

from __future__ import annotations

import random
import re
from datetime import timedelta

from django.db.models import F
from playwright.sync_api import Page, expect

from games.models import Game
from games.options import ABANDON_SECONDS

from . import pages as P

RUNNING = re.compile(r"\brunning\b")


def rewind(game_id: str, seconds: float) -> None:
    """As if `seconds` had passed on the server for this game's clock and absences."""
    delta = timedelta(seconds=seconds)
    names = ("turn_started", "setup_started", "deadline", "red_left", "blue_left")
    Game.objects.filter(public_id=game_id).update(**{n: F(n) - delta for n in names})


def clock_ms(page: Page, color: int) -> int:
    return int(page.locator(f"#clock-{color}").get_attribute("data-ms"))


def start_a_game(red: Page, blue: Page, server_url: str, time_control: str) -> str:
    P.sign_on(red, server_url, f"red{time_control.replace('+', '_')}")
    red.select_option("#time-control", time_control)
    game_id = P.create_game(red, "mini")
    P.sign_on(blue, server_url, f"blue{time_control.replace('+', '_')}")
    row = P.lobby_row(blue, "waiting", game_id)
    expect(row.locator(".game-options")).to_have_text(time_control)
    row.locator("button.join").click()
    blue.wait_for_url(f"**/games/{game_id}/")
    for page in (red, blue):
        page.click("#btn-random")
        expect(page.locator("#btn-ready")).to_be_enabled()
        page.click("#btn-ready")
    for page in (red, blue):
        P.wait_phase(page, "playing")
    return game_id


def test_both_clocks_count_down_and_the_movers_clock_changes(server_url, new_context):
    red, blue = new_context().new_page(), new_context().new_page()
    game_id = start_a_game(red, blue, server_url, "5+3")
    watcher = new_context(viewport={"width": 375, "height": 740}).new_page()
    watcher.goto(f"{server_url}/games/{game_id}/")
    expect(watcher.locator("#game-options")).to_contain_text("5+3 (5 min + 3 s a move)")

    for page in (red, blue, watcher):  # Red's clock runs for everyone, Blue's stands at 5:00
        expect(page.locator("#clock-0")).to_have_class(RUNNING)
        expect(page.locator("#clock-1")).not_to_have_class(RUNNING)
        expect(page.locator("#clock-1")).to_have_text("5:00")
        expect(page.locator("#clock-0")).not_to_have_text("5:00")  # it counts down
    for color in (0, 1):  # readable on a phone: on screen, in digits of a useful size
        box = watcher.locator(f"#clock-{color}").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375, box
        size = watcher.locator(f"#clock-{color}").evaluate("el => getComputedStyle(el).fontSize")
        assert float(size.rstrip("px")) >= 18
    P.shot(watcher, "clocks_phone")

    before = clock_ms(red, 0)
    P.play_move(red, random.Random(2), "click")
    for page in (red, blue, watcher):
        expect(page.locator("#clock-1")).to_have_class(RUNNING)
        expect(page.locator("#clock-0")).not_to_have_class(RUNNING)
        expect(page.locator("#clock-1")).not_to_have_text("5:00")  # Blue's turn: it counts
    after = clock_ms(red, 0)
    assert before < after <= 303_000, (before, after)  # the increment came, and it stands
    assert clock_ms(blue, 0) == after and clock_ms(watcher, 0) == after
    P.shot(red, "clocks")

    # Blue's flag falls while nobody acts: the server ends the game on time by itself (the
    # sockets scheduled their checks at the deadline; a page opened now checks at once).
    rewind(game_id, 300)
    watcher.reload()
    for page in (red, blue, watcher):
        expect(page.locator("#banner")).to_contain_text("Red (red5_3) wins: Blue ran out of time")
    expect(red.locator("#banner-text")).to_contain_text("You won!")
    expect(blue.locator("#banner-text")).to_contain_text("You lost.")
    expect(blue.locator("#clock-1")).to_have_text("0:00.0")
    assert Game.objects.get(public_id=game_id).termination == "time"


def test_a_player_claims_victory_after_the_opponent_closed_the_page(server_url, new_context):
    red_context = new_context()
    red_context.clock.install()  # the page's own time, to be moved on below
    red, blue_context = red_context.new_page(), new_context()
    blue = blue_context.new_page()
    game_id = start_a_game(red, blue, server_url, "untimed")
    for color in (0, 1):
        expect(red.locator(f"#clock-{color}")).to_be_hidden()  # untimed: no clocks
    expect(red.locator("#away")).to_be_hidden()

    blue.close()
    expect(red.locator("#away")).to_contain_text("Blue (blueuntimed) left the game.")
    claim = red.locator("#btn-claim")
    expect(claim).to_be_disabled()
    expect(claim).to_have_text(re.compile(r"Claim victory in [01]:\d\d"))

    blue = blue_context.new_page()  # Blue comes back: the claim is off
    blue.goto(f"{server_url}/games/{game_id}/")
    expect(red.locator("#away")).to_be_hidden()
    blue.close()  # ... and leaves again: the wait starts over
    expect(red.locator("#away")).to_be_visible()
    expect(claim).to_be_disabled()
    P.shot(red, "claim_wait")

    rewind(game_id, ABANDON_SECONDS)  # a minute passes on the server ...
    red.clock.fast_forward((ABANDON_SECONDS + 1) * 1000)  # ... and in Red's page
    expect(claim).to_be_enabled()
    expect(claim).to_have_text("Claim victory")
    claim.click()
    expect(red.locator("#banner-text")).to_have_text(
        "You won! Red (reduntimed) wins: Blue left the game."
    )
    expect(red.locator("#away")).to_be_hidden()
    game = Game.objects.get(public_id=game_id)
    assert (game.status, game.winner, game.termination) == ("finished", 0, "forfeit")
