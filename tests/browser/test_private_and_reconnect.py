"""In a real browser: a private game is reached only by its link, and the pages come back
by themselves after the server restarts in the middle of a game."""

from __future__ import annotations

import random

from playwright.sync_api import expect

from . import pages as P


def test_a_private_game_is_not_listed_but_its_link_works(server_url, new_context):
    host = new_context().new_page()
    P.sign_on(host, server_url, "hostess")
    host.check("#private")
    game_id = P.create_game(host, "barrage")
    expect(host.locator("#share")).to_contain_text("Private game")
    link = host.locator("#share-url").input_value()

    friend = new_context().new_page()
    P.sign_on(friend, server_url, "friend")
    expect(friend.locator("#lists")).to_have_attribute("data-loaded", "1")
    expect(P.lobby_row(friend, "waiting", game_id)).to_have_count(0)
    # A stranger with no nickname is told how to join; a guest is told which button to press.
    stranger = new_context().new_page()
    stranger.goto(link)
    expect(stranger.locator("#status")).to_have_text(
        "A seat is free: choose a nickname to join the game."
    )
    friend.goto(link)
    expect(friend.locator("#status")).to_have_text("A seat is free: press Play as Blue to join.")
    expect(friend.locator("#status")).not_to_contain_text("Watching")
    friend.get_by_role("button", name="Play as Blue").click()
    friend.wait_for_url(f"**/games/{game_id}/")
    expect(friend.locator("#seat-1 .name")).to_contain_text("friend (guest) (you)")
    expect(host.locator("#seat-1 .name")).to_contain_text("friend")
    expect(host.locator("#share")).to_be_hidden()


def test_the_pages_resync_after_a_server_restart(server, new_context):
    red = new_context().new_page()
    blue = new_context().new_page()
    P.sign_on(red, server.url, "phoenix")
    game_id = P.create_game(red, "mini")
    P.sign_on(blue, server.url, "ember")
    P.join_from_lobby(blue, game_id)
    P.ready_with_random_setups(red, blue)

    server.stop()
    expect(red.locator("#status")).to_contain_text("reconnecting")
    server.start()
    expect(red.locator("#status")).to_contain_text("Your move", timeout=20_000)
    expect(blue.locator("#status")).to_contain_text("opponent", timeout=20_000)

    P.play_move(red, random.Random(5), "click")
    expect(blue.locator("#move-list .mv")).to_have_count(1)
    expect(blue.locator("#status")).to_contain_text("Your move")
