"""Views are the security boundary: thousands of random games, no view ever shows a rank
its viewer may not know. The oracle below tracks knowledge from the public move records
alone, independently of the engine's own bookkeeping."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import BLUE, OBSERVER, RED, VARIANTS, Game

from .budget import examples

VIEWERS = (RED, BLUE, OBSERVER)


def new_game(variant: str, rng: random.Random) -> Game:
    game = Game(variant)
    for color in (RED, BLUE):
        game.random_setup(color, rng)
        game.mark_ready(color)
    return game


def follow_knowledge(known: set[int], result) -> None:
    """Update the squares whose piece both sides know, from one public move record."""
    src, dst = result.move.src, result.move.dst
    was_known = src in known
    known.discard(src)
    if result.battle is None:
        if was_known:
            known.add(dst)
    elif result.battle.result == "attacker":
        known.add(dst)  # the winner stands there, revealed
    elif result.battle.result == "both":
        known.discard(dst)
    # a defender that won stays revealed on dst
    elif result.battle.result == "defender":
        known.add(dst)


def assert_views_leak_nothing(game: Game, known: set[int]) -> None:
    for viewer in VIEWERS:
        data = json.loads(json.dumps(game.view(viewer).to_dict()))
        for square, piece in enumerate(data["board"]):
            if piece is None:
                continue
            may_know = game.is_over or piece["color"] == viewer or square in known
            assert (piece["rank"] is not None) == may_know, (viewer, square, piece)
        if viewer == OBSERVER:
            assert data["remaining"] is None
        if data["legal_moves"]:
            assert viewer == game.turn


def assert_invariants(game: Game) -> None:
    v = game.variant
    for square, unit in enumerate(game.board):
        assert unit is None or (unit.square == square and square not in v.lakes)
    for color in (RED, BLUE):
        alive = [u.rank for u in game.army[color]]
        assert sorted(alive + game.captured[color]) == sorted(
            r for r, n in v.army for _ in range(n)
        )
    assert Game.from_dict(game.to_dict()).hash == game.hash


@settings()  # the profile's budget: 100 games, 1,200 in the thorough profile
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(["mini"] * 4 + ["barrage", "duel"]))
def test_no_view_ever_shows_a_hidden_rank(seed, variant):
    rng = random.Random(seed)
    game = new_game(variant, rng)
    known: set[int] = set()
    assert_views_leak_nothing(game, known)
    while not game.is_over:
        moves = game.legal_moves()
        assert moves, "a game in play always has a legal move for the side to move"
        move = rng.choice(moves)
        assert game.is_legal(move)
        result = game.push(move)
        follow_knowledge(known, result)
        assert_views_leak_nothing(game, known)
    assert_views_leak_nothing(game, known)


@settings(max_examples=examples(25))
@given(seed=st.integers(0, 2**32))
def test_classic_games_keep_their_invariants_and_views(seed):
    rng = random.Random(seed)
    game = new_game("classic", rng)
    known: set[int] = set()
    while not game.is_over:
        result = game.push(rng.choice(game.legal_moves()))
        follow_knowledge(known, result)
        if game.ply % 50 == 0 or result.battle:
            assert_views_leak_nothing(game, known)
            assert_invariants(game)
    assert_views_leak_nothing(game, known)


def test_setup_views_show_only_the_count_of_the_other_sides_pieces():
    rng = random.Random(5)
    game = Game("classic")
    game.random_setup(RED, rng)
    game.place(BLUE, 95, 10)
    red_view, blue_view, observer = (game.view(v).to_dict() for v in VIEWERS)
    assert blue_view["board"][95]["rank"] == 10 and red_view["board"][95] is None
    assert all(p is None for p in observer["board"])
    assert sum(p is not None for p in red_view["board"]) == 40
    assert sum(p is not None for p in blue_view["board"]) == 1
    assert red_view["placed"] == blue_view["placed"] == observer["placed"] == [40, 1]
    assert red_view["remaining"]["10"] == 0 and blue_view["remaining"]["10"] == 0


def test_every_variant_has_views():
    for name in VARIANTS:
        assert len(new_game(name, random.Random(1)).view(OBSERVER).board) == VARIANTS[name].size
