"""The engine's fast answers, which the search asks at every node, agree with its plain ones."""

from __future__ import annotations

import random

import pytest

from games.engine import BLUE, BOMB, FLAG, RED, SCOUT, SERGEANT, Game, generate_setup, get_variant


@pytest.mark.parametrize("variant", ["classic", "barrage", "duel", "mini"])
def test_has_legal_move_agrees_with_the_move_generator(variant: str) -> None:
    """In random games, stalling rules and all, and in positions with few pieces left."""
    rng = random.Random(11)
    rules = get_variant(variant)
    checked = 0
    for _ in range(12):
        game = Game.from_setups(rules, generate_setup(rules, 0, rng), generate_setup(rules, 1, rng))
        while not game.is_over and game.ply < 600:
            moves = game.legal_moves()
            assert game.has_legal_move() == bool(moves)
            checked += 1
            # bias towards shuffling one piece back and forth: the two-squares rule bites
            last = game.last_move
            back = [m for m in moves if last is not None and m.src == last.move.dst]
            game.push(rng.choice(back) if back and rng.random() < 0.5 else rng.choice(moves))
    assert checked > 300


def test_has_legal_move_when_the_only_piece_is_walled_in_or_worn_out() -> None:
    walled = Game.from_position(
        "classic",
        {
            0: (RED, SERGEANT),
            1: (RED, BOMB),
            10: (RED, BOMB),
            99: (BLUE, SERGEANT),
            5: (RED, FLAG),
            98: (BLUE, FLAG),
        },
        RED,
    )
    assert walled.legal_moves() == [] and walled.has_legal_move() is False
    # one Red piece in a corridor runs back and forth until the two-squares rule bites
    game = Game.from_position(
        "classic",
        {
            0: (RED, SERGEANT),
            10: (RED, BOMB),
            2: (RED, BOMB),
            5: (RED, FLAG),
            99: (BLUE, SCOUT),
            98: (BLUE, FLAG),
        },
        RED,
    )
    for _ in range(8):
        if game.is_over:
            break
        assert game.has_legal_move() == bool(game.legal_moves())
        moves = game.legal_moves()
        game.push(moves[0])
        if not game.is_over:
            game.push(game.legal_moves()[0])
    assert game.is_over or game.has_legal_move() == bool(game.legal_moves())
