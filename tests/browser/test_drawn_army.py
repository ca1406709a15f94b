"""In a real browser: a mini game whose army is drawn as the console game draws it. The tray offers
exactly the drawn pieces, a setup placed from it is complete, and the game page says what
was drawn."""

from __future__ import annotations

from playwright.sync_api import expect

from games import engine
from games.domain.models import Game
from games.domain.options import chosen_pieces

from . import pages as P


def test_the_tray_offers_the_army_the_game_drew(server_url, new_context):
    page = new_context().new_page()
    P.sign_on(page, server_url, "drawer")
    expect(page.locator("#army")).to_be_disabled()  # classic is checked: its army is fixed
    page.check("input[name=variant][value=mini]")
    page.select_option("#army", "drawn")
    game_id = P.create_game(page, "mini")
    # The game's army as the engine loads it (a draw may give the standard army: no override).
    drawn = engine.Game.from_dict(Game.objects.get(public_id=game_id).state).variant
    army = dict(drawn.army)
    expect(page.locator("#game-options")).to_contain_text(f"army: {chosen_pieces(drawn)}")

    offered = page.locator("#tray .tray-item").evaluate_all(
        "items => items.map(i => [Number(i.dataset.rank), Number(i.dataset.count)])"
    )
    assert dict(offered) == dict(drawn.army)
    missing = ({engine.MARSHAL, engine.GENERAL} - set(army)).pop()
    expect(page.locator(f"#tray .tray-item[data-rank='{missing}']")).to_have_count(0)

    page.click("#btn-random")
    expect(page.locator("#btn-ready")).to_be_enabled()
    expect(page.locator("#btn-clear")).to_be_enabled()
    pieces = page.locator("#board .sq .piece")
    expect(pieces).to_have_count(drawn.army_size)
    page.click("#btn-clear")
    expect(pieces).to_have_count(0)
    expect(page.locator("#btn-clear")).to_be_disabled()  # nothing placed: the whole army left
    P.shot(page, "mini_drawn_army")
