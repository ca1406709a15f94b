"""Anti-stalling: two-squares (ISF 10.1), more-squares (ISF 11) and Duel's return rule."""

from games.engine import RED, Game, get_variant, parse_move

from .boards import game_from

OPEN_FIELD = """
.. .. .. .. .. .. .. .. .. BF
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. ~~ ~~ .. .. ~~ ~~ .. ..
.. .. ~~ ~~ .. .. ~~ ~~ .. ..
.. .. .. .. .. .. .. .. B4 ..
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
RF .. .. .. R5 .. .. .. .. ..
"""


def play(game: Game, *moves: str) -> None:
    for text in moves:
        game.push(parse_move(text, game.variant))


def refusal(game: Game, text: str) -> str | None:
    move = parse_move(text, game.variant)
    try:
        game.check_move(move)
    except Exception as error:  # noqa: BLE001 - the test wants the code
        return error.code
    return None


def test_two_squares_rule_allows_five_moves_and_refuses_the_sixth():
    game = game_from(OPEN_FIELD, "classic")
    red = ["E1-E2", "E2-E1", "E1-E2", "E2-E1", "E1-E2"]
    blue = ["I4-I3", "I3-I4", "I4-I3", "I3-I4", "I4-I3"]
    for r, b in zip(red, blue, strict=False):
        play(game, r, b)
    assert refusal(game, "E2-E1") == "two_squares"
    assert parse_move("E2-E1", game.variant) not in game.legal_moves()
    assert refusal(game, "E2-E3") is None  # another square is fine


def test_two_squares_run_is_broken_by_another_piece_moving():
    game = game_from(OPEN_FIELD.replace("RF .. ..", "RF R6 .."), "classic")
    blue_loop = iter(["I4-I3", "I3-H3", "H3-H4", "H4-I4"] * 4)  # Blue walks a square: no run
    for red in ["E1-E2", "E2-E1", "E1-E2", "E2-E1", "B1-B2"] + ["E1-E2", "E2-E1"] * 2 + ["E1-E2"]:
        play(game, red, next(blue_loop))
    assert refusal(game, "E2-E1") == "two_squares"


def test_two_squares_limit_is_a_variant_setting():
    assert get_variant("classic").two_squares_limit == 5
    game = game_from(
        """
BF .. .. .. ..
.. .. .. .. B5
.. .. .. .. ..
.. .. .. .. ..
RF .. R5 .. ..
""",
        "mini",
    )  # mini plays the three-move limit many online sites use
    play(game, "C1-C2", "E4-E3", "C2-C1", "E3-E4", "C1-C2", "E4-E3")
    assert refusal(game, "C2-C1") == "two_squares"


CHASE = """
.. .. .. .. .. .. .. .. .. BF
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. ~~ ~~ .. .. ~~ ~~ .. ..
.. .. ~~ ~~ .. .. ~~ ~~ .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. B4 .. .. ..
RF .. .. .. .. RM .. .. .. ..
"""


def test_more_squares_rule_forbids_a_chase_that_repeats_a_position():
    # Red's Marshal chases Blue's Sergeant round the square F2-G2-G3-F3.
    game = game_from(CHASE, "classic")
    play(game, "F1-F2")  # threatens G2
    play(game, "G2-G3", "F2-G2", "G3-F3", "G2-G3", "F3-F2", "G3-F3", "F2-G2")
    # Back to F2 would recreate the position after Red's first threat: forbidden.
    assert refusal(game, "F3-F2") == "more_squares"
    assert parse_move("F3-F2", game.variant) not in game.legal_moves()
    assert refusal(game, "F3-E3") is None  # giving up the chase is always allowed


def test_more_squares_rule_allows_stepping_back_where_the_chaser_came_from():
    game = game_from(CHASE, "classic")
    play(game, "F1-F2", "G2-G3", "F2-G2", "G3-H3")
    # The chaser may always return to the square it left on its previous turn.
    assert refusal(game, "G2-F2") is None


def test_no_chase_rule_in_duel_uses_the_return_rule_instead():
    game = game_from(CHASE, "duel")
    play(game, "F1-F2", "G2-G3", "F2-G2", "G3-F3", "G2-G3", "F3-F2", "G3-F3", "F2-G2")
    assert refusal(game, "F3-F2") is None  # it left F2 three moves ago


def test_duel_return_rule_needs_three_moves_before_coming_back():
    game = game_from(OPEN_FIELD, "duel")
    play(game, "E1-E2", "I4-I3")
    assert refusal(game, "E2-E1") == "return_too_soon"
    play(game, "E2-E3", "I3-H3")
    assert refusal(game, "E3-E2") == "return_too_soon"
    play(game, "E3-D3", "H3-H4")
    assert refusal(game, "D3-D2") is None
    play(game, "D3-D2", "H4-I4")
    assert refusal(game, "D2-E2") is None  # E2 was left three moves ago


def test_a_long_game_stays_cheap_and_the_rules_persist_through_to_dict():
    game = game_from(OPEN_FIELD, "classic")
    for _ in range(2):
        play(game, "E1-E2", "I4-I3", "E2-E1", "I3-I4")
    play(game, "E1-E2", "I4-I3")
    restored = Game.from_dict(game.to_dict())
    assert refusal(restored, "E2-E1") == "two_squares"
    assert restored.turn == RED
