"""The console game's terminal game through a pseudo-terminal (pexpect): errors, moves in one line
and in two prompts, a battle told in a sentence, QQ and save, then --resume."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pexpect

ROOT = Path(__file__).resolve().parents[2]
PROMPT = r"RED MOVE: Enter current coordinates of piece \(e\.g\., D2, or QQ to quit\): "
BOARD_ROW = re.compile(r"^([A-E]) \| (.{9}) \|\r?$", re.M)
BATTLE = re.compile(r"(RED|BLUE) \S at [A-E]\d (captures|captured by|blown up by|and) "
                    r"(RED|BLUE) \S at [A-E]\d")  # fmt: skip
MOVABLE = set("123456789S")


def spawn(*args: str) -> pexpect.spawn:
    command = [str(ROOT / "manage.py"), "play", *args]
    return pexpect.spawn(sys.executable, command, cwd=str(ROOT), encoding="utf-8", timeout=30,
                         env={"DJANGO_SETTINGS_MODULE": "stratego_site.settings",
                              "PATH": "/usr/bin:/bin"})  # fmt: skip


def board(text: str) -> dict[str, str]:
    """The last board drawn in `text`: {"D2": "7", ...} (X hidden, " " empty)."""
    rows = BOARD_ROW.findall(text)[-5:]
    assert [r for r, _ in rows] == list("ABCDE"), text
    return {f"{r}{c + 1}": cells[2 * c] for r, cells in rows for c in range(5)}


def neighbours(name: str) -> list[str]:
    row, col = ord(name[0]), int(name[1:])
    out = [f"{chr(row + dr)}{col + dc}" for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))]
    return [n for n in out if "A" <= n[0] <= "E" and 1 <= int(n[1:]) <= 5]


def choose(cells: dict[str, str]) -> tuple[str, str]:
    """An attack on an X next to one of my pieces if there is one, else a step forward."""
    mine = [sq for sq, c in cells.items() if c in MOVABLE]
    for sq in mine:
        for n in neighbours(sq):
            if cells[n] == "X":
                return sq, n
    for sq in sorted(mine):
        ahead = f"{chr(ord(sq[0]) - 1)}{sq[1:]}"
        if ahead[0] >= "A" and cells[ahead] == " ":
            return sq, ahead
    raise AssertionError(f"no move found on {cells}")


def test_a_terminal_game_from_start_through_a_battle_to_save_and_resume(tmp_path):
    save = tmp_path / "game.json"
    game = spawn("--seed", "11", "--save", str(save))
    game.expect(PROMPT)
    cells = board(game.before)
    assert all(cells[f"{r}{c}"] == "X" for r in "AB" for c in range(1, 6))
    stuck = next(sq for sq, c in cells.items() if c in "BF")
    game.sendline(stuck)
    game.expect(rf"Error: Invalid piece or not moveable at {stuck}\. Try again\.\.\.")
    game.expect(PROMPT)
    game.sendline("C3")
    game.expect(r"Error: Invalid piece or not moveable at C3\. Try again\.\.\.")
    game.expect(PROMPT)
    src, dst = choose(cells)
    game.sendline(src)  # two prompts, as in the console game
    game.expect(rf"RED MOVE: Enter new coordinates of piece at {src}:")
    game.sendline("A9")
    game.expect(r"Error: Invalid move from .* Try again\.\.\.")
    game.expect(PROMPT)
    game.sendline(src)
    game.expect(rf"RED MOVE: Enter new coordinates of piece at {src}:")
    game.sendline(dst)
    game.expect(rf"RED \S (move from {src} to {dst}|at {src} )")
    seen_battle = False
    for _ in range(30):
        game.expect(PROMPT)
        text = game.before
        seen_battle = seen_battle or bool(BATTLE.search(text))
        if seen_battle:
            break
        src, dst = choose(board(text))
        game.sendline(f"{src} {dst}")  # one line
    assert seen_battle, "no battle in 30 moves"
    before_quit = board(game.before)
    game.sendline("QQ")
    game.expect(r"Save the game\? \(Y/N\): ")
    game.sendline("Y")
    game.expect(r"Game saved to .*game\.json")
    game.expect(pexpect.EOF)
    assert save.exists()

    resumed = spawn("--resume", str(save))
    resumed.expect(PROMPT)
    assert board(resumed.before) == before_quit
    src, dst = choose(before_quit)
    resumed.sendline(f"{src} {dst}")
    resumed.expect(rf"RED \S (move from {src} to {dst}|at {src} )")
    resumed.expect(PROMPT)
    resumed.sendline("QQ")
    resumed.expect(r"Save the game\? \(Y/N\): ")
    resumed.sendline("N")
    resumed.expect(pexpect.EOF)


def test_a_missing_save_file_is_a_clear_error(tmp_path):
    game = spawn("--resume", str(tmp_path / "nothing.json"))
    game.expect(r"Could not load the saved game")
    game.expect(pexpect.EOF)
    game.close()
    assert game.exitstatus == 1
