"""Where people put each rank, and the tracker that follows enemy pieces from their start
(games/bots/origin_prior.py, games/bots/knowledge.py)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.bots.human_setups import place, setups
from games.bots.knowledge import Tracker, build_beliefs
from games.bots.origin_prior import MatchedSetups, fits, origin_weights
from games.engine import (
    ATTACKER,
    BLUE,
    BOMB,
    FLAG,
    MARSHAL,
    MINER,
    RED,
    SCOUT,
    Game,
    get_variant,
)

CLASSIC = get_variant("classic")


def _people_game(seed: int) -> Game:
    rng = random.Random(seed)
    grids = setups("classic")
    game = Game("classic")
    for color in (RED, BLUE):
        game.set_setup(color, place(CLASSIC, color, rng.choice(grids), rng.random() < 0.5))
        game.mark_ready(color)
    return game


@pytest.mark.parametrize("seed", range(4))
def test_the_tracker_knows_where_every_enemy_piece_started_and_what_it_showed(seed: int) -> None:
    rng = random.Random(seed)
    game = _people_game(seed)
    setups_at_start = game.initial_setups()
    trackers = {RED: Tracker(), BLUE: Tracker()}
    starts = {sq: sq for sq, piece in enumerate(game.board) if piece is not None}
    for _ in range(400):
        if game.is_over:
            break
        mover = game.turn
        view = game.view(mover)
        tracker = trackers[mover]
        tracker.observe(view)
        enemy = 1 - mover
        for sq, piece in enumerate(view.board):
            if piece is not None and piece.color == enemy:
                assert tracker.origin(view, sq) == starts[sq]
        for start, rank in tracker.shown.items():
            assert setups_at_start[enemy][start] == rank
        moves = game.legal_moves()
        attacks = [m for m in moves if game.board[m.dst] is not None]
        move = rng.choice(attacks) if attacks and rng.random() < 0.5 else rng.choice(moves)
        result = game.push(move)
        start = starts.pop(move.src)
        if result.battle is None or result.battle.result == ATTACKER:
            starts[move.dst] = start
        elif result.battle.result != ATTACKER and game.board[move.dst] is None:
            starts.pop(move.dst, None)
    assert any(trackers[RED].shown.values()) and trackers[BLUE].movers


def test_a_tracker_that_joins_a_game_under_way_knows_only_the_unmoved_pieces_start() -> None:
    game = _people_game(7)
    rng = random.Random(7)
    for _ in range(12):
        game.push(rng.choice(game.legal_moves()))
    tracker = Tracker()
    view = game.view(game.turn)
    tracker.observe(view)
    enemy = 1 - game.turn
    for sq, piece in enumerate(view.board):
        if piece is not None and piece.color == enemy:
            assert tracker.origin(view, sq) == (None if piece.moved else sq)


def test_people_keep_the_flag_on_the_back_rows_and_bombs_off_the_front_row() -> None:
    back_row, front = 93, 63  # on Blue's back row and front row, seen by Red
    back = origin_weights(CLASSIC, RED, back_row)
    front_row = origin_weights(CLASSIC, RED, front)
    assert back is not None and front_row is not None
    assert sum(back.values()) == pytest.approx(1.0)
    assert back[FLAG] > 0.1 > front_row[FLAG]
    assert back[BOMB] > 2 * front_row[BOMB]
    assert origin_weights(CLASSIC, RED, 50) is None  # not in Blue's setup area


def test_the_table_serves_only_variants_whose_setups_people_played() -> None:
    assert fits(CLASSIC)
    assert not fits(get_variant("barrage")) and not fits(get_variant("duel"))
    assert not fits(dataclasses.replace(CLASSIC, flag_on_back_row=True))
    assert MatchedSetups(get_variant("mini"), RED, {}, set()).weights(0) is None


def test_a_shown_marshal_draws_the_matched_setups_towards_setups_with_it_there() -> None:
    plain = MatchedSetups(CLASSIC, RED, {}, set())
    shown = MatchedSetups(CLASSIC, RED, {63: MARSHAL}, set())
    assert shown.weights(63)[MARSHAL] > 1.5 * plain.weights(63)[MARSHAL]
    # a setup holds one Marshal: where it was seen, it is less likely elsewhere
    assert shown.weights(66)[MARSHAL] < plain.weights(66)[MARSHAL]


def test_a_square_whose_piece_moved_holds_no_bomb_in_the_matched_setups() -> None:
    plain = MatchedSetups(CLASSIC, RED, {}, set())
    moved = MatchedSetups(CLASSIC, RED, {}, {91})
    assert moved.weights(91)[BOMB] < plain.weights(91)[BOMB]
    assert moved.weights(91)[FLAG] < plain.weights(91)[FLAG]


def test_beliefs_from_the_people_still_sum_to_the_hidden_counts() -> None:
    game = _people_game(3)
    rng = random.Random(3)
    tracker = Tracker()
    for _ in range(30):
        if game.turn == RED:
            tracker.observe(game.view(RED))
        game.push(rng.choice(game.legal_moves()))
    view = game.view(RED)
    tracker.observe(view)
    matched = MatchedSetups(CLASSIC, RED, tracker.shown, tracker.movers)
    beliefs = build_beliefs(view, tracker, origin_prior=matched.weights)
    for sq, probs in beliefs.probs.items():
        assert sum(probs.values()) == pytest.approx(1.0)
        if view.board[sq].moved:
            assert probs.get(BOMB, 0.0) == 0.0 and probs.get(FLAG, 0.0) == 0.0
    for rank in (MINER, SCOUT, BOMB):
        hidden = beliefs.hidden_counts.get(rank, 0)
        total = sum(
            p.get(rank, 0.0) for sq, p in beliefs.probs.items() if view.board[sq].rank is None
        )
        assert total == pytest.approx(hidden, abs=0.05)


def test_the_people_believe_a_back_row_piece_rather_a_bomb_than_a_front_one() -> None:
    game = _people_game(5)
    view = game.view(RED)
    beliefs = build_beliefs(
        view, Tracker(), origin_prior=MatchedSetups(CLASSIC, RED, {}, set()).weights
    )
    plain = build_beliefs(view, Tracker())
    assert beliefs.p(91, BOMB) > beliefs.p(61, BOMB)
    assert beliefs.p(61, BOMB) < plain.p(61, BOMB)
    assert beliefs.p(90, FLAG) > beliefs.p(80, FLAG) > beliefs.p(65, FLAG)
