"""push/pop, the move/unmove cycle of a search, gives the same answers as the normal path."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import BLUE, OBSERVER, RED, Game, parse_move

from .boards import game_from
from .budget import examples
from .test_stalling_isf import CORNER


def new_game(variant: str, rng: random.Random) -> Game:
    game = Game(variant)
    for color in (RED, BLUE):
        game.random_setup(color, rng)
        game.mark_ready(color)
    return game


def picture(game: Game) -> tuple:
    """Everything a caller can see of a game: its state, moves, views, hash, turn."""
    views = tuple(repr(game.view(v)) for v in (RED, BLUE, OBSERVER))
    return (game.to_dict(), game.legal_moves(), views, game.hash, game.is_over, game.last_move)


@settings(max_examples=examples(12))
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(["mini", "barrage", "duel", "classic"]))
def test_push_then_pop_restores_everything_and_push_again_is_the_normal_path(seed, variant):
    rng = random.Random(seed)
    game = new_game(variant, rng)
    while not game.is_over and game.ply < 150:
        before = picture(game)
        pushed = 0  # a little search: up to four moves deep, then back
        while pushed < rng.randint(1, 4) and not game.is_over:
            game.push(rng.choice(game.legal_moves()))
            pushed += 1
        for _ in range(pushed):
            game.pop()
        assert picture(game) == before
        move = rng.choice(game.legal_moves())
        normal = Game.from_dict(game.to_dict())
        assert game.push(move) == normal.push(move)
        assert game.to_dict() == normal.to_dict()


def test_pop_restores_a_chase_a_run_and_a_finished_game():
    game = game_from(CORNER, "classic")
    for text in ["H8-H9", "I9-I10", "H9-H10", "I10-I9", "H10-H9", "I9-K9", "I8-K8", "K9-I9"]:
        game.push(parse_move(text, game.variant))
    before = picture(game)
    game.push(parse_move("K8-I8", game.variant))
    game.push(parse_move("I9-I10", game.variant))
    assert game.chases[0] is not None
    game.pop()
    game.pop()
    assert picture(game) == before
    assert game.pop().move == parse_move("K9-I9", game.variant)


def test_pop_takes_back_a_flag_capture():
    game = game_from(CORNER.replace("BF ..", "BF R2"), "classic")  # a Red Scout next to the flag
    before = picture(game)
    game.push(parse_move("B10-A10", game.variant))
    assert game.is_over
    game.pop()
    assert picture(game) == before and not game.is_over


def test_pop_without_a_pushed_move_raises():
    game = Game.from_dict(game_from(CORNER, "classic").to_dict())
    with pytest.raises(IndexError):
        game.pop()
