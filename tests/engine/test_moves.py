"""Move rules on small boards: each test draws a position and states the moves or the error."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import BLUE, RED, Game, IllegalMoveError, Move, parse_move, parse_square

from .boards import game_from, moves_from
from .budget import examples


def error_code(game, text, color=None):
    with pytest.raises(IllegalMoveError) as info:
        game.push(parse_move(text, game.variant), color)
    assert info.value.message  # every refusal has a reason a player can read
    return info.value.code


MINI_START = """
BF B3 BB .. B6
.. .. .. .. ..
.. .. .. .. ..
.. .. .. .. ..
R7 RM RB .. RF
"""


def test_one_square_orthogonal_moves():
    game = game_from(MINI_START)
    assert moves_from(game, "B1") == {"B2"}
    assert moves_from(game, "A1") == {"A2"}


def test_bombs_and_flags_never_move():
    game = game_from(MINI_START)
    assert moves_from(game, "C1") == set()
    assert error_code(game, "C1-C2") == "immovable"
    assert error_code(game, "E1-D1") == "immovable"


def test_errors_for_every_kind_of_wrong_move():
    game = game_from(MINI_START)
    assert error_code(game, "D1-D2") == "empty_square"
    assert error_code(game, "B5-B4") == "not_your_piece"
    assert error_code(game, "B1-C2") == "not_straight"
    assert error_code(game, "B1-B3") == "too_far"
    assert error_code(game, "B1-C1") == "own_piece"
    assert error_code(game, "B1-B1") == "same_square"
    assert error_code(game, "B1-B2", color=BLUE) == "not_your_turn"
    with pytest.raises(IllegalMoveError) as info:
        game.push(Move(1, 99))
    assert info.value.code == "off_board"


def test_game_not_started_and_game_over():
    from games.engine import Game

    assert error_code(Game("mini"), "A1-A2") == "not_playing"
    game = game_from(MINI_START)
    game.resign(RED)
    assert game.outcome.winner == BLUE and game.outcome.termination == "resignation"
    assert error_code(game, "B1-B2") == "game_over"


CLASSIC_SCOUTS = """
.. .. .. .. .. .. .. .. .. BF
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. ~~ ~~ .. .. ~~ ~~ .. ..
.. .. ~~ ~~ .. .. ~~ ~~ .. ..
.. .. .. .. B4 .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
R2 .. .. R2 .. .. .. .. .. RF
"""


def test_scout_moves_any_distance_and_strikes_the_first_enemy():
    game = game_from(CLASSIC_SCOUTS, "classic")
    # A1 runs up the A file to A10 and right along row 1 until the other scout.
    assert moves_from(game, "A1") == {f"A{r}" for r in range(2, 11)} | {"B1", "C1"}
    # D1 is stopped by the lake at D5, by its own scout on the left and its own flag on the right.
    assert moves_from(game, "D1") == {"D2", "D3", "D4", "B1", "C1", "E1", "F1", "G1", "H1", "I1"}


def test_scout_cannot_cross_lakes_or_jump():
    game = game_from(CLASSIC_SCOUTS, "classic")
    assert error_code(game, "D1-D7") == "path_blocked"
    assert error_code(game, "D1-D5") == "lake"
    assert error_code(game, "A1-E1") == "path_blocked"


def test_scout_move_and_strike():
    game = game_from(
        """
.. .. .. .. .. .. .. .. .. BF
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. ~~ ~~ .. .. ~~ ~~ .. ..
.. .. ~~ ~~ .. .. ~~ ~~ .. ..
.. .. .. .. B4 .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. R2 .. .. .. .. RF
""",
        "classic",
    )
    assert "E4" in moves_from(game, "E1") and "E5" not in moves_from(game, "E1")
    result = game.push(parse_move("E1-E4", game.variant))
    assert result.battle is not None and result.battle.result == "defender"
    assert game.board[parse_move("E1-E4", game.variant).dst].rank == 4


def test_legal_moves_agree_with_check_move_on_every_square_pair():
    game = game_from(CLASSIC_SCOUTS, "classic")
    legal = set(game.legal_moves())
    for src in range(100):
        for dst in range(100):
            assert game.is_legal(Move(src, dst)) == (Move(src, dst) in legal)


@settings(max_examples=examples(60))
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(["mini", "duel", "barrage", "classic"]))
def test_generated_moves_are_exactly_the_moves_check_move_accepts(seed, variant):
    """Move generation and the legality check are two paths through the rules: they must agree,
    anti-stalling rules included, in every position of random games."""
    rng = random.Random(seed)
    game = Game(variant)
    for color in (RED, BLUE):
        game.random_setup(color, rng)
        game.mark_ready(color)
    size = game.variant.size
    checked = 0
    while not game.is_over and checked < 12:
        if rng.random() < 0.05 or variant == "mini":
            legal = set(game.legal_moves())
            accepted = {
                Move(a, b)
                for a in range(size)
                if game.board[a]
                for b in range(size)
                if game.is_legal(Move(a, b))
            }
            assert legal == accepted
            checked += 1
        game.push(rng.choice(game.legal_moves()))


def test_a_move_to_the_same_square_has_its_own_reason():
    game = game_from(MINI_START)
    with pytest.raises(IllegalMoveError) as info:
        game.check_move(parse_move("A1-A1", game.variant))
    assert info.value.code == "same_square"
    assert info.value.message == "a piece must move to another square"
    assert error_code(game, "C1-C1") == "immovable"  # a bomb is told that it never moves
    assert error_code(game, "D1-D1") == "empty_square"


def console_square(name: str) -> str:
    """The console game's square (rows A-E from Blue's side, columns 1-5) in our notation: D3 ->
    C2."""
    return f"{'ABCDE'[int(name[1]) - 1]}{'EDCBA'.index(name[0]) + 1}"


# The console game's second sample board, old numbering (1 Marshal, 4 Major, 6 Lieutenant, 8 Miner):
#   D | 6 1 B B S |      Blue's rows A and B are hidden (X) there; any Blue army will do.
#   E | 4 F 8 B 4 |
CONSOLE_SECOND_BOARD = """
BB BF BB B6 B3
B8 BS BM B7 BB
.. .. .. .. ..
R5 RM RB RB RS
R7 RF R3 RB R7
"""


def test_console_game_pieces_that_are_not_moveable():
    """The console game answers D3, D4, E2 and E4 with "Invalid piece or not moveable":
    bombs, a flag."""
    game = game_from(CONSOLE_SECOND_BOARD)
    for name, reason in [
        ("D3", "a bomb never moves"),
        ("D4", "a bomb never moves"),
        ("E2", "a flag never moves"),
        ("E4", "a bomb never moves"),
    ]:
        square = console_square(name)
        assert moves_from(game, square) == set(), name
        forward = square[0] + str(int(square[1]) + 1)
        with pytest.raises(IllegalMoveError) as info:
            game.check_move(parse_move(f"{square}-{forward}", game.variant))
        assert (info.value.code, info.value.message) == ("immovable", reason), name


def test_console_game_pieces_that_move():
    game = game_from(CONSOLE_SECOND_BOARD)
    # The Lieutenant, the Marshal and the Spy step forward into the empty row C.
    for name in ("D1", "D2", "D5"):
        assert moves_from(game, console_square(name)) == {console_square("C" + name[1])}, name
    assert {m.src for m in game.legal_moves()} == {
        parse_square(console_square(n), game.variant) for n in ("D1", "D2", "D5")
    }
    # The Majors and the Miner on row E may move, but their own pieces box them in for now.
    for name, to in [("E1", "D1"), ("E3", "D3"), ("E5", "D5")]:
        assert moves_from(game, console_square(name)) == set(), name
        assert error_code(game, f"{console_square(name)}-{console_square(to)}") == "own_piece"
