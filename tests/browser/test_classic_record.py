"""In a real browser: two people play a classic game to its first battle (the README's
screenshot), one resigns, and the StraDoS2 XML downloaded from the replay page reads back
through the engine's records reader as the very same moves."""

from __future__ import annotations

import functools
import random
from pathlib import Path

from playwright.sync_api import expect

from games import engine
from games.domain.models import Game
from games.engine import records

from . import pages as P

MAX_PLIES = 80
OPENING = 10


def test_a_classic_battle_then_its_xml_record_from_the_replay(server_url, new_context):
    red = new_context().new_page()
    blue = new_context().new_page()
    errors: list[str] = []
    for page in (red, blue):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    P.sign_on(red, server_url, "Ann")
    game_id = P.create_game(red, "classic", seat="0")
    P.sign_on(blue, server_url, "Bo")
    P.join_from_lobby(blue, game_id)
    P.ready_with_random_setups(red, blue)

    rng = random.Random(40)
    players = {0: red, 1: blue}
    plies = 0
    for ply in range(1, MAX_PLIES + 1):
        state = P.game_state(red)
        if state["game"]["status"] != "playing":
            break
        turn = state["view"]["turn"]
        mover = players[turn]
        expect(mover.locator("#game")).to_have_attribute("data-turn", str(turn))
        # The armies close in for a few moves first, so the picture shows a game under way.
        pick = functools.partial(P.forward_first, attack=ply > OPENING)
        P.play_move(mover, rng, "click", pick=pick)
        for page in (red, blue):
            expect(page.locator("#move-list .mv")).to_have_count(ply)
        plies = ply
        # Stop at a battle with a winner (both pieces shown, one beaten), seen from Red's side.
        battle = red.evaluate("window.strategoGame.state.battleMove")
        if battle and battle["ply"] == ply and battle["battle"]["result"] != "both":
            break
    assert red.locator("#move-list .mv.battle").count() >= 1, "no battle in the classic game"
    expect(red.locator("#battle")).to_be_visible()
    expect(red.locator("#battle .fighter")).to_have_count(2)
    red.mouse.move(2, 300)  # no hover left on a square
    red.evaluate("document.activeElement.blur()")
    P.shot(red, "battle_classic")  # docs/screenshot.png is a copy of this one

    # Red resigns; the replay page offers the record.
    if P.game_state(red)["game"]["status"] == "playing":
        red.click("#btn-resign")
        red.click("#btn-resign-yes")
    expect(red.locator("#banner")).to_be_visible()
    red.get_by_role("link", name="Replay this game").click()
    red.wait_for_url(f"**/games/{game_id}/replay/")
    with red.expect_download() as download:
        red.click("#download-xml")
    path = Path(download.value.path())
    assert download.value.suggested_filename == f"stratego-{game_id}.xml"

    record = records.parse_xml(path.read_bytes())
    game = Game.objects.get(public_id=game_id)
    stored = list(game.moves.order_by("ply").values_list("from_square", "to_square"))
    assert len(stored) == plies
    assert record.variant == "classic"
    assert [(m.src, m.dst) for m in record.moves] == stored
    assert record.players == ("Ann", "Bo")
    replayed = records.replay(record)
    assert replayed.outcome == engine.Outcome(game.winner, game.termination)
    assert replayed.initial_setups() == engine.Game.from_dict(game.state).initial_setups()
    assert not errors, errors
