"""ISF 10 for Scouts and ISF 11 across several chasing pieces: the cases the rules name.

Each rule is tested in both directions: the move ISF forbids is refused (and missing from the
legal moves), the move ISF allows is played."""

from games.engine import Game, parse_move

from .boards import game_from
from .test_stalling import OPEN_FIELD, play, refusal

SCOUT_FIELD = OPEN_FIELD.replace("RF .. .. .. R5", "RF .. .. .. R2")  # a Red Scout on E1
BLUE_WALK = ["I4-I3", "I3-H3", "H3-H4", "H4-I4"]  # Blue walks a square: no run of its own


def scout_game(*red_moves: str) -> Game:
    game = game_from(SCOUT_FIELD, "classic")
    blue = iter(BLUE_WALK * 5)
    for move in ("E1-E2", *red_moves):
        play(game, move, next(blue))
    return game


def blue_walks_on(game: Game) -> None:
    """Blue's next step round its square (it is back on I4 every four moves)."""
    walk = {m.split("-")[0]: m for m in BLUE_WALK}
    square = next(sq for sq in walk if game.board[parse_move(walk[sq], game.variant).src])
    play(game, walk[square])


def is_legal(game: Game, text: str) -> bool:
    return parse_move(text, game.variant) in game.legal_moves()


def test_a_scout_shuttling_along_a_line_with_varying_squares_is_stopped_at_the_sixth_move():
    game = scout_game("E2-E7", "E7-E3", "E3-E8", "E8-E2", "E2-E6")
    assert refusal(game, "E6-E3") == "two_squares"
    assert refusal(game, "E6-E2") == "two_squares"
    assert not is_legal(game, "E6-E4")
    assert refusal(game, "E6-F6") is None  # leaving the line is always allowed


def test_five_long_scout_moves_then_a_shorter_one_back_is_refused():
    game = scout_game("E2-E7", "E7-E2", "E2-E7", "E7-E2", "E2-E7")
    assert refusal(game, "E7-E3") == "two_squares"
    assert not is_legal(game, "E7-E3")


def test_a_scout_that_keeps_going_one_way_is_not_shuttling():
    game = game_from(SCOUT_FIELD, "classic")
    blue = iter(BLUE_WALK * 3)
    for move in ["E1-E2", "E2-E3", "E3-E4", "E4-E5", "E5-E6", "E6-E7"]:
        play(game, move, next(blue))  # six moves up the same column: all legal
    play(game, "E7-E2", next(blue))  # turning back starts counting the stretch E2..E7
    assert refusal(game, "E2-E8") is None


def test_a_scout_run_is_broken_by_moving_along_another_line():
    game = scout_game("E2-E7", "E7-E3", "E3-E8", "E8-E2", "E2-E6", "E6-F6")
    assert refusal(game, "F6-E6") is None
    play(game, "F6-E6")
    blue_walks_on(game)
    assert refusal(game, "E6-E3") is None  # a new run along column E: one move so far


def test_the_scout_rule_survives_a_save_in_the_old_and_the_new_format():
    game = scout_game("E2-E7", "E7-E3", "E3-E8", "E8-E2", "E2-E6")
    saved = game.to_dict()
    assert refusal(Game.from_dict(saved), "E6-E3") == "two_squares"
    run = saved["runs"][0]
    saved["runs"][0] = run[:4]  # a run as saved before runs had a stretch: src, dst only
    assert refusal(Game.from_dict(saved), "E6-E2") == "two_squares"


CORNER = """
BF .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. B8 ..
.. .. .. .. .. .. .. RM R9 ..
.. .. .. .. .. .. .. .. .. ..
.. .. ~~ ~~ .. .. ~~ ~~ .. ..
.. .. ~~ ~~ .. .. ~~ ~~ .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
RF .. .. .. .. .. .. .. .. ..
"""


def test_a_chase_by_two_pieces_may_not_recreate_a_position_of_the_chase():
    game = game_from(CORNER, "classic")
    play(game, "H8-H9", "I9-I10", "H9-H10", "I10-I9", "H10-H9", "I9-K9")
    play(game, "I8-K8", "K9-I9", "K8-I8", "I9-I10")  # the General takes over the chase
    # The Marshal to H10 would recreate the position after ply 3: the chase is one chase.
    assert refusal(game, "H9-H10") == "more_squares"
    assert not is_legal(game, "H9-H10")
    assert refusal(game, "I8-K8") is None  # a chasing move to a new position is fine
    assert refusal(game, "H9-G9") is None  # and so is giving up the chase


def test_going_straight_back_where_the_chasing_piece_came_from_stays_allowed():
    game = game_from(CORNER, "classic")
    play(game, "H8-H9", "I9-I10", "H9-H10", "I10-I9")
    assert refusal(game, "H10-H9") is None  # recreates the position after ply 1: allowed
    play(game, "H10-H9", "I9-K9", "I8-K8", "K9-I9")
    assert refusal(game, "K8-I8") is None


def test_a_position_from_before_the_chase_may_be_recreated():
    game = game_from(CHASE_FROM_STANDING, "classic")
    play(game, "A2-A3")  # position A: the Marshal on F2 next to the Sergeant on G2, no threat
    play(game, "G2-G3", "F2-G2", "G3-F3", "G2-G3", "F3-F2", "G3-F3", "F2-G2")
    # F3-F2 recreates position A, from before Red's first threat (ply 3): not covered.
    assert refusal(game, "F3-F2") is None
    play(game, "F3-F2", "G2-G3")
    # F2-G2 recreates the position after that first threat: a position of the chase.
    assert refusal(game, "F2-G2") == "more_squares"


def test_the_chase_and_its_positions_end_when_the_chaser_stops_chasing():
    game = game_from(CHASE_FROM_STANDING, "classic")
    play(game, "A2-A3", "G2-G3", "F2-G2", "G3-F3", "G2-G3", "F3-F2", "G3-F3", "F2-G2")
    assert game.chases[0] is not None
    play(game, "A3-A4")  # Red stops chasing: the chase and its positions are gone
    assert game.chases[0] is None
    play(game, "G2-G3", "A4-A3", "G3-G2", "F3-F2", "G2-G3")  # a new chase begins at F3-F2
    # The position after ply 3 again: it belonged to the old chase, not to this one.
    assert refusal(game, "F2-G2") is None


CHASE_FROM_STANDING = """
.. .. .. .. .. .. .. .. .. BF
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. ~~ ~~ .. .. ~~ ~~ .. ..
.. .. ~~ ~~ .. .. ~~ ~~ .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
R5 .. .. .. .. RM B4 .. .. ..
RF .. .. .. .. .. .. .. .. ..
"""


def test_the_chase_ends_when_the_chased_side_does_not_evade():
    game = game_from(
        CHASE_FROM_STANDING.replace(
            ".. .. .. .. .. .. .. .. .. BF", "B5 .. .. .. .. .. .. .. .. BF"
        ),
        "classic",
    )
    play(game, "A2-A3", "G2-G3", "F2-G2", "G3-F3")
    assert game.chases[0] is not None  # Blue's Sergeant evaded: Red is chasing
    play(game, "G2-G3", "A10-A9")  # Blue moves another piece: no evasion, no chase
    assert game.chases[0] is None


TWO_EVADERS = """
.. .. .. .. .. .. .. .. .. BF
.. .. .. .. B4 .. B5 .. .. ..
.. .. .. .. .. RM .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. ~~ ~~ .. .. ~~ ~~ .. ..
.. .. ~~ ~~ .. .. ~~ ~~ .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
RF .. .. .. .. .. .. .. .. ..
"""


def test_one_chase_follows_several_evading_pieces():
    game = game_from(TWO_EVADERS, "classic")
    sergeant, lieutenant = game.board[84], game.board[86]  # E9 and G9
    play(game, "F8-F9", "E9-E10")  # both threatened; the Sergeant evades
    play(game, "F9-F10", "E10-E9", "F10-F9", "G9-G10")  # now the Lieutenant evades too
    assert game.chases[0].evaders == {sergeant.id, lieutenant.id}
    # F9-F10 threatens only the Lieutenant: still a chasing move, its position joins the chase.
    positions = game.chases[0].positions
    play(game, "F9-F10")
    assert game.chases[0] is not None and len(game.chases[0].positions) == len(positions) + 1
