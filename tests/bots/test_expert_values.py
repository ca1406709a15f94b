"""What `expert` counts a piece worth beyond its rank, each on a small board: the Spy, the
one piece that takes the enemy Marshal without a trade, and our Marshal when the enemy
alone still has a General. Each test also plays the position with `hard`'s worths, and
shows that the move changes with them."""

from __future__ import annotations

import pytest
from test_expert import endgame, expert_move, sq

from games.bots.evaluation import BASE_VALUES, Values
from games.bots.expert import ExpertPlayer
from games.bots.knowledge import build_beliefs
from games.engine import (
    BLUE,
    BOMB,
    COLONEL,
    FLAG,
    GENERAL,
    LIEUTENANT,
    MAJOR,
    MARSHAL,
    RED,
    SERGEANT,
    SPY,
)

# Far from the action, so that neither side is down to its last few movers (each of those
# is worth much more, and the worths tested here would be drowned).
RED_FILLERS = {sq(0, c): (RED, SERGEANT) for c in (3, 4, 5, 6)}
BLUE_FILLERS = {sq(9, c): (BLUE, SERGEANT) for c in (3, 4, 5, 6)}
FILLERS = {**RED_FILLERS, **BLUE_FILLERS}


def spy_and_major_attacked() -> dict[int, tuple[int, int]]:
    """Blue's two known Colonels have walked up, one to Red's hidden Spy, one to Red's
    hidden Major; Red can save one of them. Blue's Marshal is alive (hidden, at home)."""
    return {
        sq(0, 0): (RED, FLAG),
        sq(0, 1): (RED, BOMB),
        sq(1, 0): (RED, BOMB),
        sq(0, 9): (RED, MARSHAL),
        sq(3, 1): (RED, SPY),
        sq(3, 8): (RED, MAJOR),
        sq(4, 1): (BLUE, COLONEL),
        sq(4, 8): (BLUE, COLONEL),
        sq(9, 0): (BLUE, FLAG),
        sq(8, 0): (BLUE, BOMB),
        sq(9, 9): (BLUE, MARSHAL),
    } | FILLERS


def test_the_spy_is_saved_before_a_major_while_the_enemy_marshal_lives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """DoI's known pieces walked up to expert's Spy and took it, as they take any piece that
    does not attack them; its Marshal then took what it liked. The Spy is worth more than a
    Major to expert now; at `hard`'s worth (less than a Major) the Major was saved."""
    pieces = spy_and_major_attacked()
    moved = (sq(4, 1), sq(4, 8), sq(3, 1), sq(3, 8), *FILLERS)
    game = endgame(pieces, moved=moved, revealed=(sq(4, 1), sq(4, 8), *BLUE_FILLERS))
    for seed in range(3):
        assert expert_move(game, seed).src == sq(3, 1), seed
    monkeypatch.setattr(ExpertPlayer, "spy_worth", (BASE_VALUES[SPY], BASE_VALUES[SPY]))
    assert expert_move(game, 0).src == sq(3, 8)


def marshal_facing_marshal() -> dict[int, tuple[int, int]]:
    """Red's known Marshal stands next to Blue's known Marshal; Red has no General, Blue
    has one. Red's Colonel could take Blue's known Major meanwhile."""
    return {
        sq(0, 0): (RED, FLAG),
        sq(0, 1): (RED, BOMB),
        sq(1, 0): (RED, BOMB),
        sq(4, 4): (RED, MARSHAL),
        sq(3, 8): (RED, COLONEL),
        sq(1, 5): (RED, LIEUTENANT),
        sq(5, 4): (BLUE, MARSHAL),
        sq(4, 8): (BLUE, MAJOR),
        sq(9, 9): (BLUE, GENERAL),
        sq(9, 0): (BLUE, FLAG),
        sq(8, 0): (BLUE, BOMB),
    } | FILLERS


def test_the_last_marshal_against_a_general_avoids_the_trade(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """DoI took expert's General, then traded Marshals and won with its own General. With no
    General left against Blue's, Red's Marshal steps out of the trade rather than let its
    Colonel take a Major; counted even, the trade was left to Blue and the Major taken."""
    pieces = marshal_facing_marshal()
    moved = (sq(4, 4), sq(5, 4), sq(3, 8), sq(4, 8), sq(1, 5), *FILLERS)
    known = (sq(4, 4), sq(5, 4), sq(3, 8), sq(4, 8), *BLUE_FILLERS)
    game = endgame(pieces, moved=moved, revealed=known)
    for seed in range(3):
        move = expert_move(game, seed)
        assert move.src == sq(4, 4) and move.dst != sq(5, 4), (seed, move)
    monkeypatch.setattr(ExpertPlayer, "last_guard", 0.0)
    assert expert_move(game, 0).src == sq(3, 8)


def test_the_marshals_worth_counts_generals_on_both_sides() -> None:
    pieces = marshal_facing_marshal()
    known = (sq(4, 4), sq(5, 4), *BLUE_FILLERS)
    game = endgame(pieces, moved=(sq(4, 4), sq(5, 4), *FILLERS), revealed=known)
    view = game.view(RED)
    values = Values(view.game_variant(), view, build_beliefs(view), last_guard=50.0)
    assert values.mine[MARSHAL] == BASE_VALUES[MARSHAL] + 50.0
    assert values.theirs[MARSHAL] == BASE_VALUES[MARSHAL]
    blue = game.view(BLUE)
    values = Values(blue.game_variant(), blue, build_beliefs(blue), last_guard=50.0)
    assert values.mine[MARSHAL] == BASE_VALUES[MARSHAL]
    assert values.theirs[MARSHAL] == BASE_VALUES[MARSHAL] + 50.0
