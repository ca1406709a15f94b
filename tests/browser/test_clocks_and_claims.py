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

from games.domain.models import Game
from games.domain.options import ABANDON_SECONDS

from . import pages as P

RUNNING = re.compile(r"\brunning\b")


def rewind(game_id: str, seconds: float) -> None:
    """As if `seconds` had passed on the server for this game's clock and absences."""
    delta = timedelta(seconds=seconds)
    names = ("turn_started", "setup_started", "deadline", "red_left", "blue_left")
    Game.objects.filter(public_id=game_id).update(**{n: F(n) - delta for n in names})


def clock_ms(page: Page, color: int) -> int:
    return int(page.locator(f"#clock-{color}").get_attribute("data-ms"))


def start_a_game(
    red: Page, blue: Page, server_url: str, time_control: str, variant: str = "mini", ready=None
) -> str:
    """Red creates the game, Blue joins from the lobby, both take a random setup and press
    READY (`ready(page)` runs on each page just before)."""
    suffix = time_control.replace("+", "_") + ("" if variant == "mini" else variant)
    P.sign_on(red, server_url, f"red{suffix}")
    red.select_option("#time-control", time_control)
    game_id = P.create_game(red, variant)
    P.sign_on(blue, server_url, f"blue{suffix}")
    row = P.lobby_row(blue, "waiting", game_id)
    expect(row.locator(".game-options")).to_contain_text(time_control)
    P.join_from_lobby(blue, game_id)
    P.ready_with_random_setups(red, blue, before_ready=ready)
    return game_id


PHONE = {"width": 375, "height": 740}


def on_screen(box: dict | None, viewport: dict = PHONE) -> bool:
    """The box (a bounding box, relative to the viewport) lies wholly inside the viewport."""
    return (
        box is not None
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= viewport["width"]
        and box["y"] + box["height"] <= viewport["height"]
    )


def square_boxes(page: Page) -> list[dict]:
    return page.locator("#board .sq").evaluate_all(
        """els => els.map(e => { const r = e.getBoundingClientRect();
             return {x: r.x, y: r.y, width: r.width, height: r.height}; })"""
    )


def assert_board_and_clocks_fit(page: Page, squares: int) -> None:
    """At the top of the page, with no scrolling: both clocks and every square on screen."""
    page.evaluate("window.scrollTo(0, 0)")
    for color in (0, 1):
        box = page.locator(f"#clock-{color}").bounding_box()
        assert on_screen(box), (color, box)
    boxes = square_boxes(page)
    assert len(boxes) == squares and all(on_screen(box) for box in boxes), [
        box for box in boxes if not on_screen(box)
    ][:3]


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
    # players' sockets scheduled their checks at the deadline; a player's page opened now
    # checks at once; observers' sockets check nothing, the heartbeat's sweep would).
    rewind(game_id, 300)
    red.reload()
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

    board = red.locator("#board").bounding_box()
    blue.close()
    expect(red.locator("#away")).to_contain_text("Blue (blueuntimed) left the game.")
    expect(red.locator("#away-text")).to_have_text(
        re.compile(r"left the game\. If they are not back by .+, you may claim victory\.$")
    )
    expect(red.locator("#seat-1 .seat-note")).to_have_text("left")
    assert red.locator("#board").bounding_box() == board, "the board stays where it was"
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
    expect(red.locator("#away-text")).to_have_text(
        "Blue (blueuntimed) left the game. You may claim victory."
    )
    claim.click()
    expect(red.locator("#banner-text")).to_have_text(
        "You won! Red (reduntimed) wins: Blue left the game."
    )
    expect(red.locator("#away")).to_be_hidden()
    game = Game.objects.get(public_id=game_id)
    assert (game.status, game.winner, game.termination) == ("finished", 0, "forfeit")


def test_on_a_phone_the_board_and_both_clocks_fit_one_screen(server_url, new_context):
    """A timed classic game on two phones (375x740): the clocks stand above and below the
    board, and the whole board and both clocks are on one screen without scrolling, for Red
    and for Blue (whose board is turned). In the setup, scrolled down to READY, the player's
    clock and the setup time are still on screen. When Blue leaves, Red's page says whose
    clock runs, and the board does not move."""
    red = new_context(viewport=PHONE).new_page()
    blue_context = new_context(viewport=PHONE)
    blue = blue_context.new_page()

    def ready_in_view(page: Page) -> None:
        page.locator("#btn-ready").scroll_into_view_if_needed()
        role = P.game_state(page)["role"]
        for what in (f"#clock-{role}", "#setup-timer", "#btn-ready"):
            assert on_screen(page.locator(what).bounding_box()), what
        if role == 0:
            page.screenshot(path=str(P.ARTIFACTS / "clocks_phone_setup.png"))  # as seen

    game_id = start_a_game(red, blue, server_url, "5+3", "classic", ready=ready_in_view)
    P.shot(red, "clocks_phone_classic")
    P.shot(blue, "clocks_phone_classic_blue")
    for page in (red, blue):
        assert_board_and_clocks_fit(page, 100)

    rng = random.Random(5)
    P.play_move(red, rng, "click", pick=P.forward_first)  # the status lines change: no shift
    expect(blue.locator("#clock-1")).to_have_class(RUNNING)
    P.play_move(blue, rng, "click", pick=P.forward_first)
    expect(red.locator("#clock-0")).to_have_class(RUNNING)
    for page in (red, blue):
        assert_board_and_clocks_fit(page, 100)

    board = red.locator("#board").bounding_box()
    blue.close()  # Red is to move: Blue's clock stands
    expect(red.locator("#away-text")).to_have_text(
        "Blue (blue5_3classic) left the game. It is your move: their clock stands until you"
        " have moved."
    )
    expect(red.locator("#seat-1 .seat-note")).to_be_visible()
    expect(red.locator("#btn-claim")).to_be_hidden()  # the clocks decide a timed game
    assert red.locator("#board").bounding_box() == board, "the board stays where it was"
    assert_board_and_clocks_fit(red, 100)
    P.play_move(red, rng, "click", pick=P.forward_first)
    expect(red.locator("#away-text")).to_have_text(
        "Blue (blue5_3classic) left the game. Their clock is running: if they do not come"
        " back, they lose on time."
    )
    expect(red.locator("#clock-1")).to_have_class(RUNNING)
    P.shot(red, "away_phone")
    assert Game.objects.get(public_id=game_id).status == "playing"
