"""`expert` keeps the structures that may hold its flag standing (games/bots/structures.py):
a flag hunter that reads them sends its Miners once few are left."""

from __future__ import annotations

import pytest
from test_expert import endgame, expert_move, sq

from games.bots import structures
from games.bots.evaluation import Position
from games.engine import BLUE, BOMB, FLAG, LIEUTENANT, MARSHAL, RED, SERGEANT, Move


def two_structures(sergeant_moved: bool = False) -> dict:
    """Red's flag walled in at (0, 2); a Lieutenant at (0, 8) walled in by Sergeants that
    never moved, a second place the flag may be; a moved Sergeant in the open."""
    return {
        sq(0, 2): (RED, FLAG),
        sq(0, 1): (RED, BOMB),
        sq(0, 3): (RED, BOMB),
        sq(1, 2): (RED, BOMB),
        sq(0, 8): (RED, LIEUTENANT),
        sq(0, 7): (RED, SERGEANT),
        sq(0, 9): (RED, SERGEANT),
        sq(1, 8): (RED, SERGEANT),
        sq(3, 4): (RED, SERGEANT),
        sq(9, 0): (BLUE, FLAG),
        sq(8, 0): (BLUE, BOMB),
        sq(9, 1): (BLUE, BOMB),
        sq(8, 5): (BLUE, MARSHAL),
    }


def position(game, color: int = RED) -> Position:
    return Position.from_view(game.view(color))


def test_a_structure_is_a_still_piece_on_the_back_rows_among_still_pieces() -> None:
    game = endgame(two_structures(), moved=(sq(3, 4), sq(8, 5)))
    assert structures.structures(position(game)) == [sq(0, 2), sq(0, 8)]
    # a neighbour that moved, or showed a rank other than a bomb's, breaks it
    moved = endgame(two_structures(), moved=(sq(3, 4), sq(8, 5), sq(1, 8)))
    assert structures.structures(position(moved)) == [sq(0, 2)]
    shown = endgame(two_structures(), moved=(sq(3, 4),))
    for square in (sq(0, 7), sq(0, 1)):  # a Sergeant and a bomb shown where they stand
        shown.board[square].revealed = True
    assert structures.structures(position(shown)) == [sq(0, 2)]
    # Blue's back rows are Blue's to count
    assert structures.structures(position(game, BLUE)) == [sq(9, 0)]


def test_the_step_that_leaves_one_structure_standing_costs_most() -> None:
    game = endgame(two_structures(), moved=(sq(3, 4), sq(8, 5)))
    where = position(game)
    standing = structures.structures(where)
    cost = structures.given_away(where, Move(sq(1, 8), sq(2, 8)), standing)
    assert cost == pytest.approx(structures.worth(1) - structures.worth(2))
    assert cost == pytest.approx(structures.STRUCTURES_WORTH / 2)
    assert structures.given_away(where, Move(sq(3, 4), sq(2, 4)), standing) == 0.0
    assert structures.worth(10) - structures.worth(11) < cost / 10


@pytest.mark.parametrize("seed", range(3))
def test_expert_moves_the_piece_in_the_open_rather_than_break_the_last_decoy(
    seed: int,
) -> None:
    game = endgame(two_structures(), moved=(sq(3, 4), sq(8, 5)))
    move = expert_move(game, seed)
    assert move.src == sq(3, 4), move
