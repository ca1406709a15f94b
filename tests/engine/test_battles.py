"""Battles: every outcome, on the board and in the table."""

import pytest

from games.engine import (
    BLUE,
    BOMB,
    CAPTAIN,
    FLAG,
    GENERAL,
    MARSHAL,
    MINER,
    RED,
    SCOUT,
    SERGEANT,
    SPY,
    get_variant,
    parse_move,
    parse_square,
    resolve_battle,
)

from .boards import game_from

CLASSIC, MINI = get_variant("classic"), get_variant("mini")


@pytest.mark.parametrize(
    ("attacker", "defender", "variant", "result"),
    [
        (MARSHAL, GENERAL, CLASSIC, "attacker"),
        (SERGEANT, CAPTAIN, CLASSIC, "defender"),
        (CAPTAIN, CAPTAIN, CLASSIC, "both"),
        (SPY, MARSHAL, CLASSIC, "attacker"),  # the spy strikes first
        (MARSHAL, SPY, CLASSIC, "attacker"),  # any attack on the spy wins
        (SCOUT, SPY, CLASSIC, "attacker"),
        (SPY, SPY, CLASSIC, "both"),
        (SPY, GENERAL, CLASSIC, "defender"),
        (SPY, GENERAL, MINI, "attacker"),  # the console game: the spy captures marshal or general
        (MINER, BOMB, CLASSIC, "attacker"),
        (MARSHAL, BOMB, CLASSIC, "defender"),
        (SCOUT, BOMB, CLASSIC, "defender"),
        (SCOUT, FLAG, CLASSIC, "attacker"),
        (SPY, FLAG, CLASSIC, "attacker"),
    ],
)
def test_battle_table(attacker, defender, variant, result):
    assert resolve_battle(attacker, defender, variant) == result


BOMB_BOARD = """
BF .. .. .. ..
.. .. .. .. B6
.. .. .. .. ..
BB .. .. BB ..
R3 .. .. RM RF
"""


def test_miner_defuses_a_bomb_and_takes_the_square():
    game = game_from(BOMB_BOARD)
    result = game.push(parse_move("A1-A2", game.variant))
    assert result.battle.result == "attacker"
    unit = game.board[parse_square("A2", game.variant)]
    assert unit.color == RED and unit.rank == MINER and unit.revealed
    assert game.captured[BLUE] == [BOMB]


def test_other_pieces_die_on_a_bomb_that_stays():
    game = game_from(BOMB_BOARD)
    game.push(parse_move("D1-D2", game.variant))
    bomb = game.board[parse_square("D2", game.variant)]
    assert bomb.rank == BOMB and bomb.revealed
    assert game.board[parse_square("D1", game.variant)] is None
    assert game.captured[RED] == [MARSHAL]


def test_battles_reveal_both_pieces_to_everyone():
    game = game_from(BOMB_BOARD)
    game.push(parse_move("D1-D2", game.variant))
    square = parse_square("D2", game.variant)
    for viewer in (RED, BLUE, 2):
        piece = game.view(viewer).board[square]
        assert piece.rank == BOMB
        assert game.view(viewer).to_dict()["last_move"]["battle"] == {
            "attacker": MARSHAL,
            "defender": BOMB,
            "result": "defender",
        }


def test_equal_ranks_remove_both():
    game = game_from("""
BF .. .. .. ..
.. .. .. .. ..
.. .. .. .. ..
.. B6 .. .. ..
.. R6 .. R3 RF
""")
    game.push(parse_move("B1-B2", game.variant))
    assert game.board[parse_square("B1", game.variant)] is None
    assert game.board[parse_square("B2", game.variant)] is None
    assert game.captured == ([CAPTAIN], [CAPTAIN])


def test_capturing_the_flag_wins():
    game = game_from("""
.. .. .. .. ..
.. .. .. .. B6
.. .. .. .. ..
BF .. .. .. ..
R3 .. .. .. RF
""")
    game.push(parse_move("A1-A2", game.variant))
    assert (
        game.is_over and game.outcome.winner == RED and game.outcome.termination == "flag_captured"
    )


def test_console_game_sample_board_sergeant_loses_to_general():
    # The console game: "RED 7 at B2 captured by BLUE 2 at A2" (old numbers: 7 sergeant, 2 general).
    # The console game draws Blue's rows A-B on top; its B2 is our B4 and its A2 our B5.
    game = game_from("""
BF B9 .. .. ..
.. R4 .. .. ..
.. .. .. .. ..
.. .. .. RB RS
RB RB RF .. ..
""")
    result = game.push(parse_move("B4-B5", game.variant))
    assert result.battle.attacker == SERGEANT and result.battle.defender == GENERAL
    assert result.battle.result == "defender"
    assert game.board[parse_square("B5", game.variant)].rank == GENERAL
