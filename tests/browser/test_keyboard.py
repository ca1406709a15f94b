"""In a real browser, with the keyboard only: a whole setup placed through the tray with Tab,
the arrow keys, Enter and Delete, focus never falling back to the page; the focus ring, the
selected square and the legal destinations look different from each other."""

from __future__ import annotations

import random
import re

from playwright.sync_api import expect

from . import pages as P


def assert_focus_sensible(page, where: str) -> dict:
    now = P.active(page)
    assert now["tag"] != "body", f"focus fell back to the page after {where}"
    return now


def test_a_setup_placed_with_the_keyboard_only(server_url, new_context):
    page = new_context().new_page()
    P.sign_on(page, server_url, "keyboardist")
    P.create_game(page, "mini", seat="0")
    info = P.variant_info(page, "mini")
    width = info["width"]
    # The flag first, on the back row; then the tray's own order, as a person would go.
    squares = sorted(info["setup_squares"][0], key=lambda sq: (sq // width, sq))
    army = [int(rank) for rank, count in info["army"].items() for _ in range(count)]
    army.sort(key=lambda rank: (rank != 12, -rank))
    assert army[0] == 12

    page.locator("body").click(position={"x": 5, "y": 5})  # start from the top of the page
    for i, (square, rank) in enumerate(zip(squares, army, strict=True)):
        before = P.tray_count(page, rank)
        P.keyboard_place(page, rank, square)
        cell = page.locator(f"#board .sq[data-square='{square}']")
        expect(cell.locator(".piece.red")).to_be_visible()
        expect(page.locator(f"#tray .tray-item[data-rank='{rank}']")).to_have_attribute(
            "data-count", str(before - 1)
        )
        now = assert_focus_sensible(page, f"placing piece {i + 1}")
        assert now["inBoard"] and now["square"] == str(square), now
        if i == 4:
            # Delete sends the piece back to the tray; focus stays on the square.
            page.keyboard.press("Delete")
            expect(cell.locator(".piece")).to_have_count(0)
            expect(page.locator(f"#tray .tray-item[data-rank='{rank}']")).to_have_attribute(
                "data-count", str(before)
            )
            assert P.active(page)["square"] == str(square)
            P.keyboard_place(page, rank, square)
            expect(cell.locator(".piece.red")).to_be_visible()
            assert P.active(page)["square"] == str(square)

    # Every piece placed: the tray has no Tab stop left; Tab reaches READY.
    expect(page.locator("#tray .tray-item:enabled")).to_have_count(0)
    expect(page.locator("#btn-ready")).to_be_enabled()
    P.tab_to(page, "#btn-ready")
    page.keyboard.press("Enter")
    expect(page.locator("#status")).to_contain_text("You are ready")
    expect(page.locator("#btn-ready")).to_be_disabled()
    # READY is disabled once pressed: focus went on to the board, not to the page.
    expect(page.locator("#board .sq:focus")).to_have_count(1)
    assert_focus_sensible(page, "READY")


def test_random_setup_by_keyboard_then_ready_keeps_focus(server_url, new_context):
    page = new_context().new_page()
    P.sign_on(page, server_url, "keyboardist2")
    P.create_game(page, "mini", seat="0")
    page.locator("body").click(position={"x": 5, "y": 5})
    P.tab_to(page, "#btn-random")
    page.keyboard.press("Enter")
    expect(page.locator("#board .piece.red")).to_have_count(10)
    # Random setup is disabled once the army is placed: focus moved on to READY.
    expect(page.locator("#btn-ready:focus")).to_have_count(1)


def test_focus_selected_and_destinations_are_told_apart(server_url, new_context):
    red = new_context().new_page()
    blue = new_context().new_page()
    P.sign_on(red, server_url, "ringred")
    game_id = P.create_game(red, "mini")
    P.sign_on(blue, server_url, "ringblue")
    P.join_from_lobby(blue, game_id)
    P.ready_with_random_setups(red, blue)

    view = P.game_state(red)["view"]
    src = view["legal_moves"][0][0]
    targets = {b for a, b in view["legal_moves"] if a == src}
    red.locator("body").click(position={"x": 5, "y": 5})
    P.tab_to(red, "#board .sq")
    P.arrow_to_square(red, src)
    red.keyboard.press("Enter")
    source = red.locator(f"#board .sq[data-square='{src}']")
    expect(source).to_have_class(re.compile(r"\bselected\b"))
    # Every legal destination carries a marker (a dot, or corner marks on a piece to attack).
    expect(red.locator("#board .sq .dest")).to_have_count(len(targets))
    for sq in targets:
        expect(red.locator(f"#board .sq[data-square='{sq}'] .dest")).to_have_count(1)

    styles = red.evaluate(
        """(src) => {
          const s = getComputedStyle(document.querySelector(`#board .sq[data-square='${src}']`));
          const plain = document.querySelector('#board .sq:not(.selected):not(.lake)');
          const d = getComputedStyle(document.querySelector('#board .sq .dest'));
          return {
            outlineColor: s.outlineColor,
            outlineWidth: s.outlineWidth,
            selectedFill: s.backgroundColor,
            plainFill: getComputedStyle(plain).backgroundColor,
            dest: d.backgroundImage !== 'none' ? d.backgroundImage : d.backgroundColor,
            focusVisible: document.activeElement.matches(':focus-visible'),
          };
        }""",
        src,
    )
    # The focused and selected square: a thick dark outline (focus) and a pale fill (selected).
    assert styles["focusVisible"]
    assert styles["outlineColor"] == "rgb(17, 17, 17)" and styles["outlineWidth"] == "4px", styles
    assert styles["selectedFill"] != styles["plainFill"], styles
    # The destination marker is dark, neither the focus outline's colour nor the fill.
    assert "17, 17, 17" in styles["dest"], styles
    assert styles["selectedFill"] not in styles["dest"]
    P.shot(red, "keyboard_selected")

    # Moving away with the arrows: the selection stays, the focus ring moves.
    P.arrow_to_square(red, sorted(targets)[0])
    expect(source).to_have_class(re.compile(r"\bselected\b"))
    red.keyboard.press("Enter")
    expect(red.locator("#move-list .mv")).to_have_count(1)
    # After the move the focus is still on the board, on the square moved to.
    assert P.active(red)["square"] == str(sorted(targets)[0])
    expect(blue.locator("#game")).to_have_attribute("data-turn", "1")  # Red's move reached Blue
    P.play_move(blue, random.Random(3), "keys")
    expect(red.locator("#move-list .mv")).to_have_count(2)
