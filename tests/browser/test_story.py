"""A newcomer's first match, in Chromium against daphne, step by step with a
screenshot of each (desktop and phone): Ada on a desktop and Ben on a phone (390x844,
touch: every press is a tap) sign on in the lobby; Ada creates a mini game, Ben joins it
from the lobby, Wes watches. The setups are private; both sides move and a battle is shown
on the board; they chat (Ada's `<script>` is shown as text); Ben loses (he resigns), asks
for a rematch and Ada accepts: colours swapped, Ben is Red. Ben arranges his army on the
board (swapping pieces), Ada hers, and Ben's Marshal walks to Ada's flag and takes it: Ben
wins the rematch.

The screenshots go to `artifacts/story/`; with STORY_SHOTS=docs/screenshots they replace
the ones in the docs (docs/screenshots/README.md lists them in order).
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.domain.models import Game

from . import pages as P

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
CLASH_IN_MS = 450  # the battle's entrance on the board (clash-in in ui.css), for the screenshots
INJECTED = "<script>window.pwned = 1</script>good luck"
SHOTS = Path(os.environ.get("STORY_SHOTS") or P.ARTIFACTS / "story")
if not SHOTS.is_absolute():
    SHOTS = Path(__file__).resolve().parents[2] / SHOTS

# The mini board (5x5, square = row * 5 + col, row 0 Red's back row). In the rematch Ben
# (Red) puts his Marshal on C2; Ada (Blue) her flag on C5, the Spy before it on C4 and the
# Captain on A4 (she moves it to and fro). The Marshal's path: C2-C3, C3xC4, C4xC5.
MARSHAL, CAPTAIN, SPY, FLAG = 10, 6, 1, 12
BEN_MARSHAL, ADA_FLAG, ADA_SPY, ADA_CAPTAIN = 7, 22, 17, 15


class Story:
    """The three people, and a numbered screenshot of each step."""

    def __init__(self, ada: Page, ben: Page, wes: Page) -> None:
        self.ada, self.ben, self.wes = ada, ben, wes
        self.step = 0
        self.files: list[str] = []
        SHOTS.mkdir(parents=True, exist_ok=True)

    def shot(self, name: str, *who: tuple[Page, str]) -> None:
        """What each page shows on its screen now (the viewport, as the person sees it)."""
        self.step += 1
        for page, device in who:
            file = f"story_{self.step:02d}_{name}_{device}.png"
            page.screenshot(path=str(SHOTS / file))
            self.files.append(file)


def press(page: Page, target: Locator) -> None:
    """A tap on a touch screen, a click elsewhere."""
    if page.viewport_size and page.viewport_size["width"] < 500:
        target.tap()
    else:
        target.click()


def square(page: Page, sq: int) -> Locator:
    return page.locator(f"#board .sq[data-square='{sq}']")


def own_square(page: Page, rank: int) -> int:
    """Where this page's own piece of `rank` stands (its view shows its own pieces)."""
    state = P.game_state(page)
    mine = [p and p["color"] == state["role"] and p["rank"] for p in state["view"]["board"]]
    return mine.index(rank)


def put(page: Page, rank: int, sq: int) -> None:
    """Swap pieces on the board (press one, then the other) until `rank` stands on `sq`."""
    here = own_square(page, rank)
    if here == sq:
        return
    press(page, square(page, here))
    expect(square(page, here)).to_have_class(re.compile(r"\bselected\b"))
    press(page, square(page, sq))
    page.wait_for_function(
        f"() => window.strategoGame.state.view.board[{sq}]?.rank === {rank}", timeout=P.TIMEOUT_MS
    )


def move(page: Page, src: int, dst: int) -> None:
    """Press a piece, then a highlighted destination; wait until the move is on the board."""
    ply = P.game_state(page)["view"]["ply"]
    press(page, square(page, src))
    expect(square(page, dst)).to_have_class(re.compile(r"\btarget\b"))
    press(page, square(page, dst))
    page.wait_for_function(
        f"() => window.strategoGame.state.view.ply > {ply}", timeout=P.TIMEOUT_MS
    )


def wait_turn(page: Page, color: int) -> None:
    page.wait_for_function(
        f"() => {{ const s = window.strategoGame.state; return s.view?.phase === 'playing'"
        f" && s.view.turn === {color} && s.view.legal_moves.length > 0; }}",
        timeout=P.TIMEOUT_MS,
    )


def on_screen(page: Page, selector: str) -> bool:
    """The whole element is inside the viewport as it is scrolled now (once the layout has
    settled: a slow machine may still be drawing the page)."""
    try:
        page.wait_for_function(
            """(sel) => { const el = document.querySelector(sel); if (!el) return false;
              const r = el.getBoundingClientRect();
              return r.height > 0 && r.top >= 0 && r.left >= 0
                && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1; }""",
            arg=selector,
            timeout=5_000,
        )
    except PlaywrightTimeout:
        P.shot(page, "story_not_on_screen")  # (artifacts/: what the page showed instead)
        return False
    return True


def test_a_newcomer_plays_loses_asks_for_a_rematch_and_wins_it(server_url, new_context):
    errors: list[str] = []
    people = []
    for options in (DESKTOP, PHONE, DESKTOP):
        page = new_context(**options).new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        people.append(page)
    ada, ben, wes = people
    story = Story(ada, ben, wes)

    # The lobby: a nickname, then the lobby; Ada creates a mini game, Ben joins it.
    P.sign_on(ada, server_url, "ada")
    ben.goto(server_url + "/")
    ben.fill("#nickname", "ben")
    press(ben, ben.locator("text=Play as guest"))
    expect(ben.locator(".who .me")).to_contain_text("ben")
    story.shot("lobby", (ada, "desktop"), (ben, "phone"))
    gid = P.create_game(ada, "mini")
    expect(ada.locator("#share")).to_be_visible()
    expect(ada.locator("#btn-resign")).to_have_text("Cancel this game")
    expect(ada.locator("#btn-abort")).to_be_hidden()  # one way out before anyone joined
    ben.goto(server_url + "/")
    row = P.lobby_row(ben, "waiting", gid)
    expect(row).to_contain_text("ada")
    assert on_screen(ben, "#waiting-note"), "on a phone a game to join is told on the first screen"
    expect(ben.locator("#waiting-count")).to_have_text("1")
    press(ben, ben.locator("#waiting-note a"))
    assert on_screen(ben, f"#waiting .game-row[data-game-id='{gid}'] button.join")
    story.shot("created_and_listed", (ada, "desktop"), (ben, "phone"))
    press(ben, row.locator("button.join"))
    ben.wait_for_url(f"**/games/{gid}/")
    P.sign_on(wes, server_url, "wes")
    wes.goto(f"{server_url}/games/{gid}/")
    for page in (ada, ben, wes):
        P.wait_phase(page, "setup")
    expect(ada.locator("#spectators")).to_have_text("1 watching")

    # Private setup: Ada's army is placed; Ben and Wes see a count, never a piece of hers.
    press(ada, ada.locator("#btn-random"))
    for page in (ben, wes):
        expect(page.locator("#seat-0 .name")).to_contain_text("10 placed")
        assert not [p for p in P.game_state(page)["view"]["board"] if p and p["color"] == 0]
    assert on_screen(ben, "#board"), "the phone shows the whole board"
    story.shot("private_setup", (ada, "desktop"), (ben, "phone"), (wes, "spectator"))
    press(ben, ben.locator("#btn-random"))
    expect(ben.locator("#btn-ready")).to_be_enabled()
    ben.locator("#btn-ready").scroll_into_view_if_needed()
    story.shot("ready_to_start", (ben, "phone"))
    press(ben, ben.locator("#btn-ready"))
    expect(ada.locator("#seat-1 .name")).to_contain_text("ready")
    press(ada, ada.locator("#btn-ready"))
    for page in (ada, ben, wes):
        P.wait_phase(page, "playing")
    ben.evaluate("scrollTo(0, 0)")
    assert on_screen(ben, "#board")
    story.shot("play_starts", (ada, "desktop"), (ben, "phone"))

    # Both sides move (Ada by clicks, Ben by taps), attacks first, until a battle.
    rng = random.Random(12)
    players = {0: ada, 1: ben}
    battle = None
    for _ in range(60):
        turn = P.game_state(ada)["view"]["turn"]
        page = players[turn]
        wait_turn(page, turn)
        view = P.game_state(page)["view"]
        src, dst = P.forward_first(view, rng, attack=view["ply"] >= 2)
        move(page, src, dst)
        battle = page.evaluate(f"window.strategoGame.state.moves.get({view['ply'] + 1})")
        if battle and battle["battle"]:
            break
    assert battle and battle["battle"], "no battle in 60 moves"
    assert P.game_state(ada)["view"]["ply"] >= 2, "both sides moved"
    for page in (ada, ben, wes):
        expect(page.locator("#board .sq.battle-here .clash .piece")).to_have_count(2)
    ben.evaluate("scrollTo(0, 0)")
    ada.wait_for_timeout(CLASH_IN_MS)
    story.shot("battle_on_the_board", (ada, "desktop"), (ben, "phone"), (wes, "spectator"))
    # On the phone the battle opens from the bar under the board, the board left in place.
    press(ben, ben.locator("#dock-battle"))
    expect(ben.locator("#battle")).to_be_visible()
    story.shot("battle_panel", (ben, "phone"))
    press(ben, ben.locator("#dock-battle"))
    # The battle leaves the board by itself; the panel keeps it.
    for page in (ada, ben, wes):
        expect(page.locator("#board .sq.battle-here")).to_have_count(0)
        expect(page.locator("#battle")).to_contain_text("Battle on")

    # Chat: what Ada types is shown as text and run nowhere; Ben answers from the phone.
    ada.fill("#chat-input", INJECTED)
    ada.press("#chat-input", "Enter")
    expect(ben.locator("#chat-unread")).to_have_text("1")
    press(ben, ben.locator("#dock-chat"))
    ben.fill("#chat-input", "thanks, you too")
    press(ben, ben.locator("#chat-form button[type=submit]"))
    for page in (ada, ben, wes):
        expect(page.locator("#chat-list .chat-text").first).to_have_text(INJECTED)
        expect(page.locator("#chat-list .chat-text").last).to_have_text("thanks, you too")
        expect(page.locator("#chat-list script")).to_have_count(0)
        assert page.evaluate("window.pwned") is None
    ada.locator("#chat-list").scroll_into_view_if_needed()
    story.shot("chat", (ada, "desktop"), (ben, "phone"))
    press(ben, ben.locator("#dock-chat"))  # closed again: the board and the buttons free

    # Ben loses: he resigns (with a confirmation).
    ben.locator("#btn-resign").scroll_into_view_if_needed()
    press(ben, ben.locator("#btn-resign"))
    expect(ben.locator("#resign-confirm")).to_be_visible()
    story.shot("resign_confirm", (ben, "phone"))
    press(ben, ben.locator("#btn-resign-yes"))
    expect(ben.locator("#banner-text")).to_have_text("You lost. Red (ada) wins: Blue resigned.")
    expect(ada.locator("#banner-text")).to_contain_text("You won!")
    expect(wes.locator("#banner")).to_be_visible()
    for page in (ada, ben):
        page.evaluate("scrollTo(0, 0)")
    assert on_screen(ben, "#btn-rematch"), "the phone shows the rematch button without scrolling"
    story.shot("ben_lost", (ada, "desktop"), (ben, "phone"))

    # Ben asks for a rematch, Ada accepts: a new game, colours swapped; Wes gets the link.
    press(ben, ben.locator("#btn-rematch"))
    expect(ben.locator("#rematch-sent")).to_be_visible()
    expect(ada.locator("#rematch-answer")).to_be_visible()
    story.shot("rematch_offered", (ada, "desktop"), (ben, "phone"))
    press(ada, ada.locator("#btn-rematch-accept"))
    for page in (ada, ben):
        page.wait_for_url(re.compile(r"/games/(?!" + gid + r")[a-z0-9]+/$"))
    new_id = ada.url.rstrip("/").rsplit("/", 1)[-1]
    assert ben.url == ada.url
    expect(wes.locator("#rematch-link")).to_have_attribute("href", f"/games/{new_id}/")
    new = Game.objects.get(public_id=new_id)
    assert (new.red_name, new.blue_name) == ("ben", "ada")
    for page, role in ((ada, "1"), (ben, "0")):
        expect(page.locator("#game")).to_have_attribute("data-role-now", role)
        P.wait_phase(page, "setup")
    story.shot("rematch_colours_swapped", (ada, "desktop"), (ben, "phone"), (wes, "spectator"))
    press(wes, wes.locator("#rematch-link"))
    wes.wait_for_url(f"**/games/{new_id}/")

    # The rematch's setups, arranged on the board by swapping pieces.
    press(ben, ben.locator("#btn-random"))
    press(ada, ada.locator("#btn-random"))
    for page in (ada, ben):
        expect(page.locator("#btn-ready")).to_be_enabled()
    put(ben, MARSHAL, BEN_MARSHAL)
    for rank, sq in ((FLAG, ADA_FLAG), (SPY, ADA_SPY), (CAPTAIN, ADA_CAPTAIN)):
        put(ada, rank, sq)
    ben.evaluate("scrollTo(0, 0)")
    story.shot("rematch_setup", (ada, "desktop"), (ben, "phone"))
    for page in (ben, ada):
        page.locator("#btn-ready").scroll_into_view_if_needed()
        press(page, page.locator("#btn-ready"))
    for page in (ada, ben, wes):
        P.wait_phase(page, "playing")
    ben.evaluate("scrollTo(0, 0)")

    # Ben's Marshal goes for the flag; Ada moves her Captain to and fro.
    wait_turn(ben, 0)
    move(ben, BEN_MARSHAL, 12)
    wait_turn(ada, 1)
    move(ada, ADA_CAPTAIN, 10)
    wait_turn(ben, 0)
    move(ben, 12, ADA_SPY)
    expect(ben.locator("#board .sq.battle-here .clash .piece")).to_have_count(2)
    ben.wait_for_timeout(CLASH_IN_MS)
    story.shot("rematch_battle", (ada, "desktop"), (ben, "phone"))
    wait_turn(ada, 1)
    move(ada, 10, ADA_CAPTAIN)
    wait_turn(ben, 0)
    press(ben, square(ben, ADA_SPY))
    expect(square(ben, ADA_FLAG)).to_have_class(re.compile(r"\btarget\b"))
    press(ben, square(ben, ADA_FLAG))

    # Ben wins the rematch.
    expect(ben.locator("#banner-text")).to_have_text(
        "You won! Red (ben) wins: Blue's flag was captured."
    )
    expect(ada.locator("#banner-text")).to_contain_text("You lost.")
    expect(wes.locator("#banner-text")).to_contain_text("ben")
    finished = Game.objects.get(public_id=new_id)
    assert (finished.winner, finished.termination) == (0, "flag_captured")
    assert on_screen(ben, "#banner")
    ben.wait_for_timeout(CLASH_IN_MS)
    story.shot("ben_wins_the_rematch", (ada, "desktop"), (ben, "phone"), (wes, "spectator"))
    assert errors == []
    assert len(story.files) == len(set(story.files)) >= 20
