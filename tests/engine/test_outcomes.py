"""How games end: by the board, by the move caps, and as the server decides."""

import pytest

from games.engine import BLUE, RED, Game, IllegalMoveError, Outcome, get_variant, parse_move

from .boards import game_from


def test_the_player_to_move_with_no_legal_move_loses():
    game = game_from("""
BF BB .. .. ..
BB .. .. .. ..
.. .. .. .. ..
.. .. .. .. R6
RF .. .. .. ..
""")
    game.push(parse_move("E2-E3", game.variant))  # Blue has only a bomb and a flag
    assert game.outcome == Outcome(RED, "no_moves")


def test_a_side_whose_pieces_are_all_boxed_in_loses_at_once():
    game = game_from(
        """
BF B6 .. .. ..
.. .. .. .. ..
.. .. .. .. ..
RB RB .. .. ..
R3 RB RF .. ..
""",
        turn=RED,
    )
    assert game.outcome == Outcome(BLUE, "no_moves")


def test_neither_side_can_move_is_a_draw():
    game = game_from("""
BF .. .. .. ..
.. .. .. .. ..
.. .. .. .. ..
.. .. .. B6 ..
RF .. .. R6 ..
""")
    game.push(parse_move("D1-D2", game.variant))  # the last movable pieces trade
    assert game.outcome == Outcome(None, "no_moves_both")


def test_duel_is_a_draw_after_200_moves_each():
    assert get_variant("duel").max_plies == 400
    game = game_from(
        """
.. .. .. .. .. .. .. .. .. BF
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. ~~ ~~ .. .. ~~ ~~ .. ..
.. .. ~~ ~~ .. .. ~~ ~~ .. ..
.. .. .. .. .. .. .. .. B9 ..
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
RF .. .. .. R9 .. .. .. .. ..
""",
        "duel",
    )
    red = ["E1-E2", "E2-F2", "F2-F1", "F1-E1"]
    blue = ["I4-I3", "I3-H3", "H3-H4", "H4-I4"]
    for i in range(200):
        assert game.outcome is None
        game.push(parse_move(red[i % 4], game.variant))
        game.push(parse_move(blue[i % 4], game.variant))
    assert game.ply == 400 and game.outcome == Outcome(None, "move_cap")


def test_classic_is_a_draw_after_200_moves_each_without_a_battle():
    v = get_variant("classic")
    assert v.max_quiet_plies == 400
    game = Game.from_position(v, {0: (RED, 12), 4: (RED, 9), 99: (BLUE, 12), 38: (BLUE, 9)})
    red = [(4, 14), (14, 15), (15, 5), (5, 4)]
    blue = [(38, 28), (28, 27), (27, 37), (37, 38)]
    from games.engine import Move

    for i in range(200):
        game.push(Move(*red[i % 4]))
        game.push(Move(*blue[i % 4]))
    assert game.outcome == Outcome(None, "move_cap")


@pytest.mark.parametrize("termination", ["resignation", "agreed_draw", "time", "forfeit"])
def test_server_decided_outcomes_use_the_same_type(termination):
    game = game_from("""
BF .. .. .. B6
.. .. .. .. ..
.. .. .. .. ..
.. .. .. .. ..
RF .. .. .. R6
""")
    winner = None if termination == "agreed_draw" else BLUE
    game.end(Outcome(winner, termination))
    assert game.is_over and game.outcome.termination == termination
    assert Game.from_dict(game.to_dict()).outcome == game.outcome


def test_unknown_terminations_are_refused():
    with pytest.raises(ValueError):
        Outcome(RED, "bored")


@pytest.mark.parametrize(
    "later",
    [Outcome(BLUE, "forfeit"), Outcome(BLUE, "time"), Outcome(None, "agreed_draw")],
)
def test_a_finished_game_keeps_its_result(later):
    game = game_from("""
BF .. .. .. B6
.. .. .. .. ..
.. .. .. .. ..
.. .. .. .. ..
R2 .. .. .. RF
""")
    game.push(parse_move("A1-A5", game.variant))  # the scout runs up the file onto the flag
    assert game.outcome == Outcome(RED, "flag_captured")
    with pytest.raises(IllegalMoveError) as info:
        game.end(later)
    assert info.value.code == "game_over"
    with pytest.raises(IllegalMoveError):
        game.resign(RED)
    assert game.outcome == Outcome(RED, "flag_captured") and game.is_over
