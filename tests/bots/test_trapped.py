"""The search's stand-pat counts a piece that the opponent's last move has trapped: attacked
by a piece that beats it, with nowhere to flee and nobody to take the attacker back."""

from __future__ import annotations

import pytest
from test_expert import sq

from games.bots.evaluation import BASE_VALUES
from games.bots.search import TRAPPED_SHARE, Clock, Searcher
from games.engine import (
    BLUE,
    BOMB,
    COLONEL,
    FLAG,
    GENERAL,
    MAJOR,
    MARSHAL,
    RED,
    Game,
    Move,
    get_variant,
)

CLASSIC = get_variant("classic")


def after_blue_steps(red: dict[int, int], general_from: int, general_to: int) -> float:
    """Blue's General steps from `general_from` to `general_to` next to Red's `red` pieces;
    what the position then costs Red, to move, by `Searcher.trapped`."""
    pieces = {sq(9, 9): (RED, FLAG), sq(9, 0): (BLUE, FLAG), general_from: (BLUE, GENERAL)}
    pieces |= {square: (RED, rank) for square, rank in red.items()}
    game = Game.from_position("classic", pieces, BLUE)
    game.push(Move(general_from, general_to))
    searcher = Searcher(CLASSIC, RED, BASE_VALUES, BASE_VALUES, Clock(1.0))
    return searcher.trapped(game)


def test_a_cornered_piece_is_counted_lost() -> None:
    cost = after_blue_steps({sq(0, 0): COLONEL, sq(0, 1): BOMB}, sq(2, 0), sq(1, 0))
    assert cost == pytest.approx(TRAPPED_SHARE * BASE_VALUES[COLONEL])


def test_a_piece_that_can_flee_is_not() -> None:
    assert after_blue_steps({sq(0, 0): COLONEL}, sq(2, 0), sq(1, 0)) == 0


def test_a_piece_whose_neighbour_takes_the_attacker_back_is_not() -> None:
    assert after_blue_steps({sq(0, 0): COLONEL, sq(0, 1): MARSHAL}, sq(2, 0), sq(1, 0)) == 0


def test_a_fork_costs_the_less_valuable_of_two_that_can_flee() -> None:
    cost = after_blue_steps({sq(0, 1): COLONEL, sq(1, 2): MAJOR}, sq(2, 1), sq(1, 1))
    assert cost == pytest.approx(TRAPPED_SHARE * BASE_VALUES[MAJOR])


def test_a_piece_that_beats_the_attacker_is_not_threatened() -> None:
    assert after_blue_steps({sq(0, 0): MARSHAL, sq(0, 1): BOMB}, sq(2, 0), sq(1, 0)) == 0
