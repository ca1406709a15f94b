"""In a real browser: a match from first click to rematch, by two players and an
observer on a phone: a private setup, chat (an injected <script> is shown as text, the
spectators' chat hidden from the players), battles on the board and in the graveyard's
counts, a lost game, a rematch with the colours swapped; an abort; move numbers past 100."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.sessions.backends.db import SessionStore
from playwright.sync_api import Page, expect

from games import engine, services
from games.domain.identity import NICKNAME_KEY, Identity
from games.domain.models import Game

from . import pages as P

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
INJECTED = "<script>window.pwned = 1</script><img src=x onerror='window.pwned = 2'>gl"


def attack_first(view: dict, rng: random.Random) -> tuple[int, int]:
    return P.forward_first(view, rng, attack=True)


def graveyard_counts(page: Page) -> dict[int, list[str]]:
    rows = page.locator("#graveyard tbody tr")
    return {
        int(rows.nth(i).get_attribute("data-rank")): rows.nth(i).locator("td").all_text_contents()
        for i in range(rows.count())
    }


def expected_counts(view: dict) -> dict[int, list[str]]:
    out = {}
    for rank, total in view["army"].items():
        left = [total - view["captured"][c].count(int(rank)) for c in (0, 1)]
        out[int(rank)] = [f"{left[0]}/{total}", f"{left[1]}/{total}"]
    return out


@pytest.fixture(scope="module")
def errors() -> list[str]:
    return []


def watch_errors(page: Page, errors: list[str]) -> Page:
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page


def test_a_whole_match_with_chat_battles_and_a_rematch(server_url, new_context, errors):
    red = watch_errors(new_context().new_page(), errors)
    blue = watch_errors(new_context().new_page(), errors)
    phone = watch_errors(new_context(**PHONE).new_page(), errors)
    P.sign_on(red, server_url, "rosa")
    P.sign_on(blue, server_url, "bruno")
    P.sign_on(phone, server_url, "wanda")
    gid = P.create_game(red, "mini")
    blue.goto(server_url + "/")
    P.join_from_lobby(blue, gid)
    phone.goto(f"{server_url}/games/{gid}/")

    # Private setup: while Red places, the others see a count, never a piece of Red's.
    red.click("#btn-random")
    expect(phone.locator("#seat-0 .name")).to_contain_text("10 placed")
    expect(blue.locator("#seat-0 .name")).to_contain_text("10 placed")
    assert not [p for p in P.game_state(phone)["view"]["board"] if p and p["color"] == 0]
    P.shot(phone, "match_01_setup_phone")

    # Chat: what Red types is shown as text, nowhere run; the spectators' chat stays with them.
    red.fill("#chat-input", INJECTED)
    red.press("#chat-input", "Enter")
    for page in (red, blue, phone):
        expect(page.locator("#chat-list .chat-text").last).to_have_text(INJECTED)
        assert page.evaluate("window.pwned") is None
        expect(page.locator("#chat-list script, #chat-list img")).to_have_count(0)
    # On the phone the chat opens from the bar under the board, which counts what is unread.
    expect(phone.locator("#chat-unread")).to_have_text("1")
    phone.click("#dock-chat")
    expect(phone.locator("#chat-unread")).to_be_hidden()
    phone.select_option("#chat-room", "spectators")
    phone.fill("#chat-input", "Red's flag is on the left")
    phone.click("#chat-form button[type=submit]")
    expect(phone.locator("#chat-list .chat-text").last).to_have_text("Red's flag is on the left")
    phone.click("#dock-chat")
    expect(phone.locator("#chat-panel")).to_be_hidden()
    expect(blue.locator("#chat-hidden")).to_be_visible()
    expect(blue.locator("#chat-list")).not_to_contain_text("flag is on the left")

    blue.click("#btn-random")
    expect(blue.locator("#btn-ready")).to_be_enabled()
    blue.click("#btn-ready")
    expect(red.locator("#seat-1 .name")).to_contain_text("ready")
    red.click("#btn-ready")
    for page in (red, blue, phone):
        P.wait_phase(page, "playing")
    expect(blue.locator("#btn-abort")).to_be_visible()  # nobody has moved: abort is open

    # Play, attacks first, until two battles have been fought; the graveyard counts them.
    rng = random.Random(12)
    players = {0: red, 1: blue}
    battles = 0
    for _ in range(80):
        state = P.game_state(red)
        if state["game"]["status"] != "playing" or battles >= 2:
            break
        turn = state["view"]["turn"]
        page = players[turn]
        page.wait_for_function(
            "() => { const s = window.strategoGame.state; return s.game.status !== 'playing'"
            f" || (s.view.turn === {turn} && s.view.legal_moves.length > 0); }}"
        )
        if P.game_state(page)["game"]["status"] != "playing":
            break
        before = P.game_state(page)["view"]["ply"]
        P.play_move(page, rng, pick=attack_first)
        expect(page.locator("#game")).not_to_have_attribute("data-turn", str(turn))
        move = page.evaluate(f"window.strategoGame.state.moves.get({before + 1})")
        if move and move["battle"]:
            battles += 1
            expect(phone.locator("#board .sq.battle-here .clash .piece")).to_have_count(2)
            # The phone's bar marks the battle; it opens over the page, the board in place.
            expect(phone.locator("#dock-battle .mark")).to_be_visible()
            phone.click("#dock-battle")
            box = phone.locator("#battle").bounding_box()
            assert box and 0 <= box["y"] and box["y"] + box["height"] <= 844, box
            P.shot(phone, f"match_02_battle_{battles}_phone")
            phone.click("#dock-battle")
            expect(phone.locator("#battle")).to_be_hidden()
    assert battles >= 1
    for page in (red, blue, phone):
        view = P.game_state(page)["view"]
        expect(page.locator("#graveyard tbody tr")).to_have_count(len(view["army"]))
        assert graveyard_counts(page) == expected_counts(view)
    P.shot(red, "match_03_play_red")

    # Blue loses (resigns); Blue asks for a rematch, Red declines once, then accepts.
    if P.game_state(blue)["game"]["status"] == "playing":
        blue.click("#btn-resign")
        blue.click("#btn-resign-yes")
    for page in (red, blue, phone):
        expect(page.locator("#banner")).to_be_visible()
    blue.click("#btn-rematch")
    expect(blue.locator("#rematch-sent")).to_be_visible()
    expect(red.locator("#rematch-answer")).to_be_visible()
    red.click("#btn-rematch-decline")
    expect(blue.locator("#notices")).to_contain_text("The rematch was declined.")
    expect(blue.locator("#btn-rematch")).to_be_visible()
    P.shot(blue, "match_04_rematch_declined")
    red.click("#btn-rematch")
    expect(blue.locator("#rematch-answer")).to_be_visible()
    blue.click("#btn-rematch-accept")
    for page in (red, blue):
        page.wait_for_url(re.compile(r"/games/(?!" + gid + r")[a-z0-9]+/$"))
    new_id = red.url.rstrip("/").rsplit("/", 1)[-1]
    assert blue.url == red.url
    expect(phone.locator("#rematch-link")).to_have_attribute("href", f"/games/{new_id}/")
    new = Game.objects.get(public_id=new_id)
    old = Game.objects.get(public_id=gid)
    assert (new.red_name, new.blue_name) == (old.blue_name, old.red_name) == ("bruno", "rosa")
    expect(red.locator("#game")).to_have_attribute("data-role-now", "1")
    expect(blue.locator("#game")).to_have_attribute("data-phase", "setup")
    P.shot(red, "match_05_rematch_red_is_blue")
    assert errors == []


def test_abort_before_both_have_moved(server_url, new_context, errors):
    red = watch_errors(new_context().new_page(), errors)
    blue = watch_errors(new_context().new_page(), errors)
    P.sign_on(red, server_url, "abby")
    P.sign_on(blue, server_url, "bert")
    gid = P.create_game(red, "mini")
    blue.goto(server_url + "/")
    P.join_from_lobby(blue, gid)
    expect(red.locator("#btn-abort")).to_be_visible()
    red.click("#btn-abort")
    expect(red.locator("#abort-confirm")).to_be_visible()  # the opponent has joined: it asks
    red.click("#btn-abort-yes")
    for page in (red, blue):
        expect(page.locator("#banner")).to_contain_text("cancelled")
        expect(page.locator("#btn-abort")).to_be_hidden()
    assert Game.objects.get(public_id=gid).status == "aborted"
    assert errors == []


def long_game(plies: int) -> str:
    """A mini game played through the services for `plies` plies, moving to empty squares
    only (so nobody wins early); the moves come from the engine's legal moves."""
    for seed in range(20):
        red, blue = guest("r"), guest("b")
        gid = services.create_game(red, variant="classic", seat=0).public_id
        services.join_game(gid, blue)
        services.random_setup(gid, red, seed=seed)
        services.random_setup(gid, blue, seed=seed + 100)
        services.ready(gid, red)
        services.ready(gid, blue)
        rng = random.Random(seed)
        people = (red, blue)
        for _ in range(plies):
            state = engine.Game.from_dict(Game.objects.get(public_id=gid).state)
            view = state.view(state.turn).to_dict()
            quiet = [m for m in view["legal_moves"] if view["board"][m[1]] is None]
            if not quiet:
                break
            services.move(gid, people[state.turn], *rng.choice(quiet))
        if Game.objects.get(public_id=gid).ply >= plies:
            services.resign(gid, people[Game.objects.get(public_id=gid).ply % 2])
            return gid
    raise AssertionError("no long game")


def guest(name: str) -> Identity:
    session = SessionStore()
    session[NICKNAME_KEY] = name
    session.create()
    return Identity(user_id=None, session_key=session.session_key, name=name)


def test_move_numbers_past_100_in_the_list_and_the_replay(server_url, new_context, errors):
    gid = long_game(210)
    page = watch_errors(new_context().new_page(), errors)
    page.goto(f"{server_url}/games/{gid}/")
    expect(page.locator("#move-list li")).to_have_count(105)
    expect(page.locator("#move-list li .mv-no").last).to_have_text("105.")
    number = page.locator("#move-list li .mv-no").last
    assert number.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), "the number is cut"
    P.shot(page, "match_06_move_105")
    page.goto(f"{server_url}/games/{gid}/replay/")
    page.click("#btn-last")
    expect(page.locator("#position")).to_contain_text("Move 105 of 105, Blue")
    assert errors == []
