"""In a real browser at a phone's 390 px: every page fits with no sideways scroll, and a
setup shows the board and the whole tray together."""

from __future__ import annotations

import re
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from games import engine, services
from games.domain.identity import Identity
from tournaments import events

from . import pages as P

PHONE = {"width": 390, "height": 844}


def finished_game(names: tuple[str, str] = ("ada", "bob")) -> tuple[str, str]:
    """A game between two accounts, over after one move (Blue resigns): its id and Red's name."""
    people = [User.objects.create_user(name, password="pw-12345678") for name in names]
    red, blue = (Identity(user_id=u.pk, session_key=None, name=u.username) for u in people)
    gid = services.create_game(red, variant="mini", seat=0).public_id
    services.join_game(gid, blue)
    for ident in (red, blue):
        services.random_setup(gid, ident, seed=3)
        services.ready(gid, ident)
    from games.models import Game

    view = engine.Game.from_dict(Game.objects.get(public_id=gid).state).view(0).to_dict()
    src, dst = view["legal_moves"][0]
    services.move(gid, red, src, dst)
    services.resign(gid, blue)
    return gid, names[0]


def fits(page, path: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{path} is {width}px wide at 390px"


def test_every_page_fits_a_phone(server_url, new_context):
    gid, account = finished_game()
    page = new_context(viewport=PHONE).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    paths = ["/", "/learn/", "/learn/rules/", "/accounts/login/", "/accounts/signup/"]
    paths += ["/players/", f"/players/{account}/", f"/games/{gid}/", f"/games/{gid}/replay/"]
    swiss = events.create(
        User.objects.get(username=account),
        events.Settings(
            name="Friday Swiss", variant="mini", starts_at=timezone.now() + timedelta(minutes=5)
        ),
    )
    paths += ["/tournaments/", f"/tournaments/{swiss.pk}/"]
    for path in paths:
        page.goto(server_url + path)
        page.wait_for_load_state("networkidle")
        fits(page, path)
    P.sign_on(page, server_url, "pocket")
    fits(page, "/ (a guest)")
    page.click("#play-now-button")
    expect(page.locator("#seek")).to_be_visible()
    fits(page, "the page waiting for an opponent")
    page.click("#seek-cancel")

    # A setup: the board and the whole tray in view together; a placement chooses nothing next.
    P.create_game(page, "classic")
    fits(page, "a setup")
    tray = page.locator("#tray")
    expect(tray.locator(".tray-item")).to_have_count(12)
    in_view = """(sel) => { const b = document.querySelector(sel).getBoundingClientRect();
        return b.top >= 0 && b.bottom <= innerHeight; }"""
    expect(page.locator("#board-area")).to_be_in_viewport(ratio=1)
    for selector in ("#board", "#tray", "#btn-ready"):
        assert page.evaluate(in_view, selector), f"{selector} is not in view with the board"
    page.locator("#tray .tray-item[data-rank='10']").click()
    page.locator("#board .sq[data-square='0']").click()
    expect(page.locator("#board .sq[data-square='0'] .piece")).to_be_visible()
    expect(page.locator("#tray .tray-item.selected")).to_have_count(0)
    page.locator("#board .sq[data-square='1']").click()  # a stray tap places nothing
    expect(page.locator("#board .sq[data-square='1'] .piece")).to_have_count(0)
    label = page.locator("#board .sq[data-square='0'] .piece-svg .label")
    size = label.evaluate("el => el.getBoundingClientRect().height")
    assert size >= 12, f"the rank number is {size:.1f}px high on a phone"
    P.shot(page, "phone_setup_tray")
    assert errors == []
    assert re.search(r"/games/\w+/$", page.url)


def test_the_panel_bar_cuts_no_word_in_any_language(server_url, new_context):
    """The bar's four buttons, the battle's mark shown, each show their whole word at 390 px
    (Italian's "Combattimento" is the longest)."""
    gid, _ = finished_game(("cleo", "dora"))
    for code in ("nl", "de", "fr", "it"):
        page = new_context(viewport=PHONE, extra_http_headers={"Accept-Language": code}).new_page()
        page.goto(f"{server_url}/games/{gid}/")
        expect(page.locator("#dock-chat")).to_be_visible()
        page.evaluate("""() => { const b = document.getElementById('dock-battle');
            b.hidden = false; b.querySelector('.mark').hidden = false; }""")  # (after a battle)
        cut = page.evaluate("""() => [...document.querySelectorAll('.dock button')]
            .filter((b) => b.offsetParent && b.scrollWidth > b.clientWidth)
            .map((b) => b.innerText)""")
        assert cut == [], f"{code}: cut in the panel bar"
        page.close()
