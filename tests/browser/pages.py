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


def join_from_lobby(page: Page, game_id: str) -> None:
    """Press Join on the game's row of the lobby's waiting list and land on the game."""
    lobby_row(page, "waiting", game_id).locator("button.join").click()
    page.wait_for_url(f"**/games/{game_id}/")


def ready_with_random_setups(*players: Page, before_ready=None) -> None:
    """Each player: Random setup, then READY (`before_ready(page)` just before); then wait
    until every page shows the battle."""
    for page in players:
        page.click("#btn-random")
        expect(page.locator("#btn-ready")).to_be_enabled()
        if before_ready is not None:
            before_ready(page)
        page.click("#btn-ready")
    for page in players:
        wait_phase(page, "playing")


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


# ------------------------------------------------------------------ the keyboard, as a person


def active(page: Page) -> dict:
    """What has keyboard focus: tag, id, classes, the square or tray rank, and where it is."""
    return page.evaluate(
        """() => { const a = document.activeElement;
          return {tag: a.tagName.toLowerCase(), id: a.id, cls: a.className,
                  square: a.dataset.square ?? null, rank: a.dataset.rank ?? null,
                  inBoard: !!a.closest('#board'), inTray: !!a.closest('#tray'),
                  inMoves: !!a.closest('#move-list'), text: (a.textContent || '').trim()}; }"""
    )


def tab_to(page: Page, selector: str, limit: int = 60) -> dict:
    """Tab (or Shift+Tab, towards where the control is) until focus is on `selector`."""
    for _ in range(limit):
        if page.evaluate("(sel) => !!document.activeElement.closest(sel)", selector):
            return active(page)
        before = page.evaluate(
            """(sel) => { const t = document.querySelector(sel), a = document.activeElement;
              if (!t || a === document.body) return false;
              return !!(t.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING); }""",
            selector,
        )
        page.keyboard.press("Shift+Tab" if before else "Tab")
    raise AssertionError(f"Tab never reached {selector}; focus is on {active(page)}")


def arrow_to_square(page: Page, square: int) -> None:
    """From the focused board square, the arrow keys to `square`."""
    where = page.evaluate(
        """(sq) => { const a = document.activeElement;
          if (!a.closest('#board')) return null;
          const t = document.querySelector(`#board .sq[data-square='${sq}']`);
          const at = (el) => {
            const row = el.parentElement;
            return [[...row.parentElement.children].indexOf(row), [...row.children].indexOf(el)];
          };
          return [at(a), at(t)]; }""",
        square,
    )
    assert where is not None, f"focus is not on the board: {active(page)}"
    (row, col), (to_row, to_col) = where
    for _ in range(abs(to_row - row)):
        page.keyboard.press("ArrowDown" if to_row > row else "ArrowUp")
    for _ in range(abs(to_col - col)):
        page.keyboard.press("ArrowRight" if to_col > col else "ArrowLeft")
    now = active(page)
    assert now["inBoard"] and now["square"] == str(square), now


def arrow_to_tray_rank(page: Page, rank: int) -> None:
    """From a focused tray piece, the arrow keys to the piece of `rank`."""
    order = [
        int(r)
        for r in page.locator("#tray .tray-item:enabled").evaluate_all(
            "els => els.map(e => e.dataset.rank)"
        )
    ]
    here = int(active(page)["rank"])
    steps = order.index(rank) - order.index(here)
    for _ in range(abs(steps)):
        page.keyboard.press("ArrowRight" if steps > 0 else "ArrowLeft")
    now = active(page)
    assert now["inTray"] and now["rank"] == str(rank), now


def keyboard_place(page: Page, rank: int, square: int) -> None:
    """Choose `rank` in the tray (if it is not chosen) and place it on `square`, by keys."""
    tray_item = page.locator(f"#tray .tray-item[data-rank='{rank}']")
    if tray_item.get_attribute("aria-selected") != "true":
        tab_to(page, "#tray .tray-item")
        arrow_to_tray_rank(page, rank)
        page.keyboard.press("Enter")
        expect(tray_item).to_have_attribute("aria-selected", "true")
        # The redraw kept focus on the piece just chosen.
        now = active(page)
        assert now["inTray"] and now["rank"] == str(rank), now
    tab_to(page, "#board .sq")
    arrow_to_square(page, square)
    page.keyboard.press("Enter")


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
        elif i == 1:  # by the keyboard: Tab to the tray, arrows, Enter; to the board, Enter
            keyboard_place(page, rank, square)
        else:
            tray_item.click()
            target.click()
        expect(target.locator(".piece")).to_be_visible(timeout=TIMEOUT_MS)
        expect(tray_item).to_have_attribute("data-count", str(before - 1), timeout=TIMEOUT_MS)
        if midway is not None and i == len(army) // 2:
            midway()


MOVE_WAYS = ("click", "keys", "drag")


def forward_first(view: dict, rng: random.Random, attack: bool = True) -> tuple[int, int]:
    """An attack if there is one (and `attack`), else a move towards the other army."""
    moves = view["legal_moves"]
    board = view["board"]
    attacks = [m for m in moves if board[m[1]] is not None]
    if attacks and attack:
        return tuple(rng.choice(attacks))
    moves = [m for m in moves if board[m[1]] is None] or moves
    width = view["width"]
    sign = 1 if view["turn"] == 0 else -1
    gain = {tuple(m): sign * (m[1] // width - m[0] // width) for m in moves}
    best = max(gain.values())
    return rng.choice([m for m, g in gain.items() if g == best])


def play_move(page: Page, rng: random.Random, way: str = "click", pick=None) -> tuple[int, int]:
    """Move a piece by clicks, by the keyboard (Tab to the board, the arrow keys, Enter) or by
    dragging, preferring an attack. The move comes from the view's `legal_moves`: the test knows no
    rule either.
    """
    view = game_state(page)["view"]
    if pick is not None:
        src, dst = pick(view, rng)
    else:
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
        tab_to(page, "#board .sq")
        arrow_to_square(page, src)
        page.keyboard.press("Enter")
    else:
        source.click()
    expect(source).to_have_class(re.compile(r"\bselected\b"))
    expect(target).to_have_class(re.compile(r"\btarget\b"))
    expect(target.locator(".dest")).to_have_count(1)
    if way == "keys":
        arrow_to_square(page, dst)
        page.keyboard.press("Enter")
        assert active(page)["square"] == str(dst), "focus stays on the square moved to"
    else:
        target.click()
    return src, dst
