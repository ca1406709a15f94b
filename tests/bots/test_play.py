"""Playing a computer in the terminal: the board shows only what the seat may know, and a
move is asked again until it is legal; a whole game against `expert` ends with a result."""

from __future__ import annotations

import io
import random

from games.bots.play import TerminalPlayer, main, render
from games.engine import BLUE, RANK_SYMBOLS, RED, Game, Move, generate_setup, get_variant, move_name

DUEL = get_variant("duel")


def test_the_board_shows_own_ranks_and_hides_the_enemys() -> None:
    rng = random.Random(1)
    game = Game.from_setups(DUEL, generate_setup(DUEL, RED, rng), generate_setup(DUEL, BLUE, rng))
    text = render(game.view(RED))
    cells = "".join(line[3:] for line in text.splitlines()[:-1]).replace(" ", "")
    own = sorted(RANK_SYMBOLS[u.rank] for u in game.board if u is not None and u.color == RED)
    assert sorted(c for c in cells if c not in ".~?") == own  # no enemy rank shown
    assert cells.count("?") == sum(1 for u in game.board if u is not None and u.color == BLUE)


def test_a_move_is_asked_again_until_it_is_legal() -> None:
    rng = random.Random(2)
    game = Game.from_setups(DUEL, generate_setup(DUEL, RED, rng), generate_setup(DUEL, BLUE, rng))
    view = game.view(RED)
    legal = Move(*view.legal_moves[0])
    answers = iter(["nonsense", "A1-K10", move_name(legal, DUEL)])
    out = io.StringIO()
    player = TerminalPlayer(read=lambda prompt: next(answers), out=out)
    player.start(RED, DUEL)
    assert player.move(view) == legal
    assert "is not a move like" in out.getvalue() and "is not a legal move" in out.getvalue()


def test_a_whole_terminal_game_against_expert(monkeypatch, capsys) -> None:
    """The person (here: always the first legal move shown) plays duel against `expert`."""
    monkeypatch.setenv("EXPERT_BUDGET", "0.02")

    def first_legal(self: TerminalPlayer, view):
        return Move(*view.legal_moves[0])

    monkeypatch.setattr(TerminalPlayer, "move", first_legal)
    assert main(["--level", "expert", "--variant", "duel", "--color", "blue"]) == 0
    assert "Game over after" in capsys.readouterr().out
