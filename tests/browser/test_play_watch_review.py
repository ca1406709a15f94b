"""In a real browser: two people play a whole mini game from the lobby while a third
watches; the replay steps through it; the admin finds it and opens its replay.

The game is played through the pages only (clicks and drags); the moves are chosen from
the `legal_moves` of the view the server sent, preferring attacks so battles happen.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import expect

from games.domain.models import Game

from . import pages as P

MAX_PLIES = 120


@dataclass
class PlayedGame:
    game_id: str
    plies: int = 0
    battles: int = 0
    observer_saw: list[str] = field(default_factory=list)
    red_setup_random: bool = False
    blue_by_hand: bool = False
    resigned: bool = False


@pytest.fixture(scope="module")
def played(server_url, new_context) -> PlayedGame:
    red = new_context().new_page()
    blue = new_context().new_page()
    watcher = new_context().new_page()
    errors: list[str] = []
    for page in (red, blue, watcher):
        page.on("pageerror", lambda exc: errors.append(str(exc)))

    # Lobby: Red creates a mini game; Blue joins it from the waiting list; a third watches.
    P.sign_on(red, server_url, "alice")
    game_id = P.create_game(red, "mini", seat="0")
    expect(red.locator("#status")).to_contain_text("Waiting for an opponent")
    expect(red.locator("#share")).to_be_visible()
    expect(red.locator("#share-url")).to_have_value(re.compile(f"/games/{game_id}/$"))
    # One "Copy link" at a time: the invitation's own while it is shown; no empty error line.
    expect(red.locator("#btn-copy-link")).to_be_hidden()
    expect(red.locator("#error")).to_be_hidden()
    red.click("#btn-share-copy")
    expect(red.locator("#btn-share-copy")).to_have_text(re.compile("copied|Selected"))

    P.sign_on(blue, server_url, "bob")
    row = P.lobby_row(blue, "waiting", game_id)
    expect(row).to_contain_text("alice (guest, Red) vs free (Blue)")
    join = P.lobby_row(blue, "waiting", game_id).locator("button.join")
    join.click()
    blue.wait_for_url(f"**/games/{game_id}/")
    expect(red.locator("#share")).to_be_hidden()
    expect(red.locator("#btn-copy-link")).to_be_visible()

    P.sign_on(watcher, server_url, "carol")
    expect(P.lobby_row(watcher, "live", game_id)).to_contain_text("0 watching")
    P.shot(watcher, "lobby")
    P.lobby_row(watcher, "live", game_id).locator("a.watch").click()
    watcher.wait_for_url(f"**/games/{game_id}/")
    expect(red.locator("#spectators")).to_have_attribute("data-count", "1")
    expect(watcher.locator("#status")).to_contain_text("placing their pieces")

    result = PlayedGame(game_id)

    # Setup: Red takes a random setup; Blue places every piece by hand through the tray.
    red.click("#btn-random")
    expect(red.locator("#btn-ready")).to_be_enabled()
    expect(red.locator("#status")).to_contain_text("press READY")
    red.click("#btn-ready")
    expect(red.locator("#status")).to_contain_text("opponent is placing")
    result.red_setup_random = True

    expect(blue.locator("#btn-ready")).to_be_disabled()
    # A setup is private until play starts: Blue sees how many, not where.
    expect(blue.locator("#seat-0 .name")).to_contain_text("ready")
    expect(blue.locator("#board .piece.red")).to_have_count(0)
    P.place_by_hand(blue, 1, "mini", midway=lambda: P.shot(blue, "setup"))
    result.blue_by_hand = True
    # A guest's setup is checked by the server and kept in the browser; it loads back.
    blue.locator("#setup-panel details.saved summary").click()
    blue.fill("#setup-name", "hand made")
    blue.click("#btn-save")
    expect(blue.locator("#setup-note")).to_contain_text("Saved")
    expect(blue.locator("#saved-setups option")).to_have_text(["hand made"])
    blue.click("#btn-clear")
    expect(blue.locator("#board .piece.blue")).to_have_count(0)
    blue.click("#btn-load")
    expect(blue.locator("#board .piece.blue")).to_have_count(10)
    expect(blue.locator("#btn-ready")).to_be_enabled()
    # ... as one `setup` message: the whole army in one event, not a place per piece.
    events = Game.objects.get(public_id=game_id).events.order_by("version")
    assert [e.kind for e in events][-2:] == ["cleared", "setup"]
    blue.click("#btn-ready")
    for page in (red, blue, watcher):
        P.wait_phase(page, "playing")
    expect(red.locator("#status")).to_contain_text("Your move")
    expect(blue.locator("#status")).to_contain_text("opponent")

    # Battle: the players move in turn; the watcher's move list follows every move.
    rng = random.Random(2026)
    players = {0: red, 1: blue}
    for ply in range(1, MAX_PLIES + 1):
        state = P.game_state(red)
        if state["game"]["status"] == "finished":
            break
        turn = state["view"]["turn"]
        mover = players[turn]
        expect(mover.locator("#game")).to_have_attribute("data-turn", str(turn))
        P.play_move(mover, rng, P.MOVE_WAYS[ply % len(P.MOVE_WAYS)])
        for page in (watcher, players[1 - turn], mover):
            expect(page.locator("#move-list .mv")).to_have_count(ply)
        result.plies = ply
        result.observer_saw.append(
            watcher.locator(f"#move-list .mv[data-ply='{ply}']").inner_text()
        )
        battles = watcher.locator("#move-list .mv.battle").count()
        if battles and not result.battles:
            expect(watcher.locator("#battle")).to_be_visible()
            # A battle in the move list is a move like the others: not laid out as the panel.
            look = watcher.locator("#move-list .mv.battle").first.evaluate(
                """el => { const s = getComputedStyle(el), box = el.getBoundingClientRect(),
                  list = el.closest('.move-list').getBoundingClientRect();
                  return {display: s.display, align: s.textAlign,
                          inside: box.right <= list.right + 0.5}; }"""
            )
            assert look == {"display": "inline-block", "align": "left", "inside": True}, look
            P.shot(red, "battle")
            P.shot(watcher, "observer")
        result.battles = battles
    else:
        blue.click("#btn-resign")
        expect(blue.locator("#resign-confirm")).to_be_visible()
        blue.click("#btn-resign-yes")
        result.resigned = True

    for page in (red, blue, watcher):
        expect(page.locator("#banner")).to_be_visible()
    P.shot(red, "game_over")
    assert not errors, errors
    return result


def test_two_players_and_a_watcher_play_a_whole_game(played: PlayedGame, server_url):
    assert played.red_setup_random and played.blue_by_hand
    assert played.plies >= 1
    assert played.battles >= 1, "the game had no battle"
    game = Game.objects.get(public_id=played.game_id)
    assert game.status == Game.Status.FINISHED
    assert game.moves.count() == played.plies
    # The watcher saw every move, in order, as the engine named it.
    expected = [m.notation for m in game.moves.order_by("ply")]
    seen = [re.sub(r"\s.*$", "", text).replace("x", "-") for text in played.observer_saw]
    assert seen == expected
    if played.resigned:
        assert game.termination == "resignation"


def test_the_end_reveals_the_board_and_shows_the_result(
    played: PlayedGame, server_url, new_context
):
    page = new_context().new_page()
    page.goto(f"{server_url}/games/{played.game_id}/")
    P.wait_phase(page, "finished")
    game = Game.objects.get(public_id=played.game_id)
    expect(page.locator("#banner")).to_contain_text("wins" if game.winner is not None else "Draw")
    expect(page.locator("#board .piece.hidden")).to_have_count(0)
    expect(page.locator("#board .piece")).not_to_have_count(0)


def shown(move) -> str:
    """A stored move as the pages write it: E3-E4, or E3xE4 for an attack."""
    return move.notation.replace("-", "x") if move.battle_result else move.notation


def test_replay_steps_through_the_finished_game(played: PlayedGame, server_url, new_context):
    assert played.plies >= 3
    page = new_context().new_page()
    page.goto(f"{server_url}/games/{played.game_id}/replay/")
    replay = page.locator("#replay")
    expect(replay).to_have_attribute("data-ply", "0")
    expect(page.locator("#position")).to_contain_text("Start position")
    expect(page.locator("#board .piece")).to_have_count(20)
    expect(page.locator("#board .piece.hidden")).to_have_count(0)
    # Every move is listed from the start; none is current yet, all are ahead.
    moves = list(Game.objects.get(public_id=played.game_id).moves.order_by("ply"))
    expect(page.locator("#move-list .mv")).to_have_count(played.plies)
    expect(page.locator("#move-list .mv.current")).to_have_count(0)
    expect(page.locator("#move-list .mv.ahead")).to_have_count(played.plies)
    page.click("#btn-next")
    expect(replay).to_have_attribute("data-ply", "1")
    first = moves[0]
    # The position line and the list write the move alike.
    full_moves = (played.plies + 1) // 2  # one numbering everywhere: full moves
    expect(page.locator("#position")).to_have_text(f"Move 1 of {full_moves}, Red: {shown(first)}")
    current = page.locator("#move-list .mv.current")
    expect(current).to_have_attribute("data-ply", "1")
    expect(current).to_have_attribute("aria-current", "step")
    expect(current).to_contain_text(shown(first))
    expect(page.locator(f"#board .sq[data-square='{first.to_square}']")).to_have_class(
        re.compile(r"\blast-to\b")
    )
    page.keyboard.press("ArrowRight")
    expect(replay).to_have_attribute("data-ply", "2")
    expect(page.locator("#move-list .mv.ahead")).to_have_count(played.plies - 2)
    page.keyboard.press("ArrowLeft")
    expect(replay).to_have_attribute("data-ply", "1")
    page.click("#btn-last")
    expect(replay).to_have_attribute("data-ply", str(played.plies))
    expect(page.locator("#result")).not_to_be_empty()
    expect(page.locator("#btn-next")).to_be_disabled()
    expect(page.locator("#move-list .mv")).to_have_count(played.plies)
    P.shot(page, "replay")
    page.locator("#move-list .mv[data-ply='1']").click()
    expect(replay).to_have_attribute("data-ply", "1")
    # Jump ahead: a later move of the list is one click away.
    page.locator(f"#move-list .mv[data-ply='{played.plies - 1}']").click()
    expect(replay).to_have_attribute("data-ply", str(played.plies - 1))
    # And with the keyboard only: Tab to the list, Tab to the second move, Enter; the arrows
    # then step and focus follows the current move.
    page.keyboard.press("Home")
    expect(replay).to_have_attribute("data-ply", "0")
    page.locator("h1").click()  # from the top of the page
    P.tab_to(page, "#move-list .mv")
    assert page.evaluate("document.activeElement.dataset.ply") == "1"
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(replay).to_have_attribute("data-ply", "2")
    page.keyboard.press("ArrowRight")
    expect(replay).to_have_attribute("data-ply", "3")
    assert page.evaluate("document.activeElement.dataset.ply") == "3"
    # The numbering switch: classic numbers the Marshal 1, and the choice is remembered.
    page.keyboard.press("Home")
    page.select_option("#numbering", "classic")
    marshals = page.locator("#board .sq[aria-label*='Marshal (1)']")
    expect(marshals).to_have_count(2)
    page.reload()
    expect(page.locator("#numbering")).to_have_value("classic")
    expect(marshals).to_have_count(2)
    page.select_option("#numbering", "modern")
    expect(page.locator("#board .sq[aria-label*='Marshal (10)']")).to_have_count(2)
    expect(replay).to_have_attribute("data-ply", "0")
    expect(page.locator("#btn-prev")).to_be_disabled()


def test_the_replay_fits_a_phone(played: PlayedGame, server_url, new_context):
    page = new_context(viewport={"width": 375, "height": 740}).new_page()
    page.goto(f"{server_url}/games/{played.game_id}/replay/")
    page.click("#btn-next")
    tops = [
        page.locator(f"#{b}").bounding_box()["y"]
        for b in ("btn-first", "btn-prev", "btn-next", "btn-last")
    ]
    assert max(tops) - min(tops) < 1, f"the step buttons wrap onto two lines: {tops}"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the replay scrolls sideways ({width}px)"
    P.shot(page, "phone_replay")


def test_admin_finds_the_game_with_a_filter_and_opens_its_replay(
    played: PlayedGame, server_url, new_context
):
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_superuser("referee", "referee@example.org", "review-pass-1")
    page = new_context().new_page()
    page.goto(f"{server_url}/admin/login/?next=/admin/games/game/")
    page.fill("#id_username", "referee")
    page.fill("#id_password", "review-pass-1")
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/games/game/")
    page.locator("#changelist-filter").get_by_role("link", name="mini", exact=True).click()
    expect(page).to_have_url(re.compile(r"variant(__exact)?=mini"))
    row = page.locator("#result_list tbody tr", has_text=played.game_id)
    expect(row).to_have_count(1)
    # The whole row fits a 1300 px window: the replay link is on screen; no XML link, as
    # StraDoS2 has no game type for mini (the admin links only to what exists).
    page.set_viewport_size({"width": 1300, "height": 900})
    expect(row.get_by_role("link", name="XML", exact=True)).to_have_count(0)
    for name in ("replay",):
        seen = row.get_by_role("link", name=name, exact=True).evaluate(
            """el => { const r = el.getBoundingClientRect();
              const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
              return r.right <= innerWidth && (hit === el || el.contains(hit)); }"""
        )
        assert seen, f"the {name} link is off screen or hidden by the table's scroll"
    assert page.evaluate("document.documentElement.scrollWidth") <= 1300
    P.shot(page, "admin_list")
    row.locator("th a, td a").first.click()
    expect(page.locator("#move-list-table tbody tr")).to_have_count(played.plies)
    page.get_by_role("link", name="Open the replay").click()
    page.wait_for_url(f"**/games/{played.game_id}/replay/")
    expect(page.locator("#position")).to_contain_text("Start position")
