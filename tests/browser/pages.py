"""What a person does on the pages, as Playwright steps (shared by the browser tests)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from playwright.sync_api import Page, expect

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
TIMEOUT_MS = 15_000


def shot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def sign_on(page: Page, base_url: str, nickname: str) -> None:
    page.goto(base_url + "/")
    page.fill("#nickname", nickname)
    page.click("text=Play as guest")
    expect(page.locator(".who .me")).to_contain_text(nickname)


def create_game(page: Page, variant: str, seat: str = "0") -> str:
    page.check(f"input[name=variant][value={variant}]")
    page.select_option("#seat", seat)
    page.click("#create-game")
    page.wait_for_url(re.compile(r"/games/[a-z0-9]+/$"))
    expect(page.locator("#board .sq").first).to_be_visible()
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def lobby_row(page: Page, list_id: str, game_id: str):
    return page.locator(f"#{list_id} .game-row[data-game-id='{game_id}']")


def game_state(page: Page) -> dict:
    """The client's picture of the game (what the server last sent it)."""
    return page.evaluate(
        "() => { const s = window.strategoGame.state;"
        " return {role: s.role, game: s.game, view: s.view, moves: s.moves.size}; }"
    )


def wait_phase(page: Page, phase: str) -> None:
    expect(page.locator("#game")).to_have_attribute("data-phase", phase, timeout=TIMEOUT_MS)


def variant_info(page: Page, variant: str) -> dict:
    return json.loads(page.evaluate(f"fetch('/games/variants/{variant}.json').then(r => r.text())"))


def tray_count(page: Page, rank: int) -> int:
    return int(page.locator(f"#tray .tray-item[data-rank='{rank}']").get_attribute("data-count"))


def place_by_hand(page: Page, color: int, variant: str, midway=None) -> None:
    """Every piece from the tray, one click on the tray and one on a square each.

    The flag goes first, on the back row (the mini variant asks for it); the second piece is
    placed with the keyboard and the last one dragged from the tray, so every way is used.
    """
    info = variant_info(page, variant)
    width, height = info["width"], info["height"]
    back_row = height - 1 if color == 1 else 0
    squares = sorted(
        info["setup_squares"][color],
        key=lambda sq: (abs(sq // width - back_row), sq),
    )
    army = [int(rank) for rank, count in info["army"].items() for _ in range(count)]
    army.sort(key=lambda rank: (rank != 12, -rank))
    for i, (square, rank) in enumerate(zip(squares, army, strict=False)):
        before = tray_count(page, rank)
        tray_item = page.locator(f"#tray .tray-item[data-rank='{rank}']")
        target = page.locator(f"#board .sq[data-square='{square}']")
        if i == len(army) - 1:
            tray_item.drag_to(target)
        elif i == 1:  # by the keyboard: Enter on the tray piece, then on the square
            tray_item.focus()
            page.keyboard.press("Enter")
            target.focus()
            page.keyboard.press("Enter")
        else:
            tray_item.click()
            target.click()
        expect(target.locator(".piece")).to_be_visible(timeout=TIMEOUT_MS)
        expect(tray_item).to_have_attribute("data-count", str(before - 1), timeout=TIMEOUT_MS)
        if midway is not None and i == len(army) // 2:
            midway()


MOVE_WAYS = ("click", "keys", "drag")


def play_move(page: Page, rng: random.Random, way: str = "click") -> tuple[int, int]:
    """Move a piece by clicks, by the keyboard (Enter on focused squares) or by dragging,
    preferring an attack. The move comes from the view's `legal_moves`: the test knows no
    rule either.
    """
    view = game_state(page)["view"]
    moves = view["legal_moves"]
    board = view["board"]
    attacks = [m for m in moves if board[m[1]] is not None]
    src, dst = rng.choice(attacks or moves)
    source = page.locator(f"#board .sq[data-square='{src}']")
    target = page.locator(f"#board .sq[data-square='{dst}']")
    if way == "drag":
        source.drag_to(target)
        return src, dst
    if way == "keys":
        source.focus()
        page.keyboard.press("Enter")
    else:
        source.click()
    expect(source).to_have_class(re.compile(r"\bselected\b"))
    expect(target).to_have_class(re.compile(r"\btarget\b"))
    if way == "keys":
        target.focus()
        page.keyboard.press("Enter")
    else:
        target.click()
    return src, dst
