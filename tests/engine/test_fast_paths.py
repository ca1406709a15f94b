"""The engine's fast paths for search (`legal_moves` from the variant's Move tables,
`legal_attacks`, `has_legal_move`'s shortcuts, `push_generated` and `pop` with their
compact undo records, the Battle table) agree with its plain rules: the move
generator `_generate`, `check_move`, `resolve_battle`, `next_run` and a hash computed from
scratch, in random games of every variant, anti-stalling refusals and game ends included."""

from __future__ import annotations

import random

import pytest

from games.engine import (
    BLUE,
    MARSHAL,
    RANKS,
    RED,
    Battle,
    Game,
    Move,
    generate_setup,
    get_variant,
    resolve_battle,
)
from games.engine.battle import battle_table
from games.engine.notation import move_tables
from games.engine.results import MoveResult, new_move_result
from games.engine.stalling import next_run


def state(game: Game) -> tuple:
    return (game.to_dict(), game.hash, game.turn, game.is_over, game.last_move, game.history[:])


@pytest.mark.parametrize("variant", ["classic", "barrage", "duel", "mini"])
def test_fast_paths_agree_with_the_plain_rules(variant: str) -> None:
    rules = get_variant(variant)
    rng = random.Random(29)
    checked = battles = refused = ended = 0
    for _ in range(5):
        game = Game.from_setups(rules, generate_setup(rules, 0, rng), generate_setup(rules, 1, rng))
        while not game.is_over and game.ply < 300:
            color, board = game.turn, game.board
            reference = list(game._generate(color, check_stalling=True))
            every = list(game._generate(color, check_stalling=False))
            refused += len(every) - len(reference)
            assert game.legal_moves() == reference
            assert game.legal_attacks() == [m for m in reference if board[m.dst] is not None]
            assert game.has_legal_move() == bool(reference)
            before = state(game)
            for move in rng.sample(reference, min(6, len(reference))):
                assert game.is_legal(move)
                unit, target = board[move.src], board[move.dst]
                assert unit is not None
                run = next_run(game.runs[color], unit.id, move.src, move.dst, rules.width)
                result = game.push_generated(move)
                expected = None
                if target is not None:
                    battles += 1
                    expected = Battle(
                        unit.rank, target.rank, resolve_battle(unit.rank, target.rank, rules)
                    )
                assert result == MoveResult(before[0]["ply"] + 1, color, move, unit.rank, expected)
                assert game.runs[color] == run
                assert game.hash == Game.from_dict(game.to_dict()).hash  # from scratch
                if game.is_over:
                    ended += 1
                else:  # the game goes on only while the side to move has a legal move
                    assert list(game._generate(game.turn, check_stalling=True))
                game.pop()
                assert state(game) == before
            # bias towards shuffling one piece back and forth: the two-squares rule bites
            own = game.last_by[color]
            back = [m for m in reference if own is not None and m.src == own.move.dst]
            game.push(rng.choice(back) if back and rng.random() < 0.8 else rng.choice(reference))
            checked += 1
    assert checked > 200 and battles > 50 and refused > 0
    if variant == "mini":
        assert ended > 0


@pytest.mark.parametrize("variant", ["classic", "barrage", "duel", "mini"])
def test_variant_tables(variant: str) -> None:
    for rules in (get_variant(variant), get_variant(variant).with_rules(spy_beats=[MARSHAL, 9])):
        for attacker in RANKS:
            for defender in RANKS:
                assert battle_table(rules)[attacker][defender] == Battle(
                    attacker, defender, resolve_battle(attacker, defender, rules)
                )
        ray_moves, step_moves = move_tables(rules)
        for src, rays in enumerate(rules.rays):
            assert ray_moves[src] == tuple(
                tuple((dst, Move(src, dst)) for dst in ray) for ray in rays
            )
            assert step_moves[src] == tuple((ray[0], Move(src, ray[0])) for ray in rays)
            assert rules.first_steps[src] == tuple(ray[0] for ray in rays)
            assert rules.step_bits[src] == sum(1 << ray[0] for ray in rays)
            assert rules.ray_bits[src] == sum(1 << sq for ray in rays for sq in ray)


def test_new_move_result_is_a_move_result() -> None:
    battle = Battle(MARSHAL, 9, resolve_battle(MARSHAL, 9, get_variant("classic")))
    for args in ((7, RED, Move(1, 2), 4, None), (8, BLUE, Move(3, 13), MARSHAL, battle)):
        made, plain = new_move_result(*args), MoveResult(*args)  # type: ignore[arg-type]
        assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
        assert made.to_dict() == plain.to_dict()
