"""`manage.py play --server URL`: the terminal screen on a game of a running daphne (the
server's computer opponent), through a pseudo-terminal; QQ saves the seat, --resume takes
it back. The game is a normal stored game."""

from __future__ import annotations

import pexpect
import pytest

from games.domain.models import Game
from tests.server.conftest import fresh_channel_layer, no_heartbeat_after_the_test  # noqa: F401
from tests.server.daphne import Daphne

from .test_terminal import BATTLE, MOVABLE, PROMPT, board, choose, neighbours, spawn

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def daphne(tmp_path):
    server = Daphne(tmp_path / "daphne.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()
    assert "Traceback" not in server.log_text()


def step(cells: dict) -> tuple[str, str]:
    """A move of mine to an empty square."""
    for square, char in sorted(cells.items()):
        if char in MOVABLE:
            for near in neighbours(square):
                if cells[near] == " ":
                    return square, near
    raise AssertionError(f"no quiet move on {cells}")


def play_until_battle(game: pexpect.spawn, moves: int = 30) -> dict:
    for _ in range(moves):
        game.expect(PROMPT)
        cells = board(game.before)
        if BATTLE.search(game.before):
            return cells
        src, dst = choose(cells)
        game.sendline(f"{src} {dst}")
    raise AssertionError("no battle")


def test_the_terminal_plays_online_saves_and_resumes(daphne, tmp_path):
    save = tmp_path / "online.json"
    url = f"http://127.0.0.1:{daphne.port}"
    game = spawn("--server", url, "--name", "termi", "--level", "random", "--save", str(save))
    game.expect(r"Playing game (\w+) on ")
    public_id = game.match.group(1)
    game.expect(r"Assigning RED pieces to the board \.\.\.")
    game.expect(PROMPT)
    first = board(game.before)
    game.sendline("C3")
    game.expect(r"Error: Invalid piece or not moveable at C3\. Try again\.\.\.")
    game.expect(PROMPT)
    game.sendline(" ".join(choose(first)))
    cells = play_until_battle(game)
    game.sendline("QQ")
    game.expect(r"Save the game\? \(Y/N\): ")
    game.sendline("Y")
    game.expect(pexpect.EOF)
    stored = Game.objects.get(public_id=public_id)
    assert (stored.red_name, stored.status) == ("termi", "playing") and stored.ply >= 2

    resumed = spawn("--resume", str(save))
    resumed.expect(PROMPT)
    assert board(resumed.before) == cells
    src, dst = step(cells)  # (no attack: the game goes on)
    resumed.sendline(f"{src} {dst}")
    resumed.expect(rf"RED \S (move from {src} to {dst}|at {src} )")
    # The random computer's reply may take Red's flag (seen once in CI): the game then ends
    # by itself, which is a resumed game going on just as well.
    if resumed.expect([PROMPT, r"BLUE wins \("]) == 0:
        resumed.sendline("QQ")
        resumed.expect(r"Save the game\? \(Y/N\): ")
        resumed.sendline("N")
    resumed.expect(pexpect.EOF)
    assert Game.objects.get(public_id=public_id).ply > stored.ply
