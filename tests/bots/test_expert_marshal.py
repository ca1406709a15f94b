"""expert's Marshal is worth more to it than the enemy's while that one may live: a trade
of Marshals costs it (against a strong program nearly every such trade came before a
loss), so its Marshal neither takes the enemy Marshal nor waits beside it."""

from __future__ import annotations

from test_expert import endgame, expert_move, sq

from games.bots.evaluation import BASE_VALUES, Values
from games.bots.expert import MARSHAL_PREMIUM
from games.bots.knowledge import build_beliefs
from games.engine import (
    BLUE,
    BOMB,
    FLAG,
    GENERAL,
    MARSHAL,
    RED,
    SCOUT,
    SERGEANT,
    Move,
    get_variant,
)

CLASSIC = get_variant("classic")


def facing_marshals(enemy_marshal: bool = True) -> dict[int, tuple[int, int]]:
    pieces = {
        sq(0, 0): (RED, FLAG),
        sq(0, 1): (RED, BOMB),
        sq(1, 0): (RED, BOMB),
        sq(4, 4): (RED, MARSHAL),
        sq(2, 8): (RED, GENERAL),
        sq(9, 9): (BLUE, FLAG),
        sq(9, 8): (BLUE, BOMB),
        sq(8, 9): (BLUE, BOMB),
        sq(5, 4): (BLUE, MARSHAL if enemy_marshal else SERGEANT),
        sq(7, 0): (BLUE, GENERAL),
    }
    pieces.update({sq(1, col): (RED, SCOUT) for col in range(3, 9)})
    pieces.update({sq(8, col): (BLUE, SCOUT) for col in range(2, 8)})
    return pieces


def test_our_marshal_is_dearer_while_theirs_may_live() -> None:
    for enemy_marshal, premium in ((True, MARSHAL_PREMIUM), (False, 0.0)):
        game = endgame(facing_marshals(enemy_marshal), moved=(sq(5, 4),))
        view = game.view(RED)
        beliefs = build_beliefs(view)
        plain = Values(CLASSIC, view, beliefs)
        dear = Values(CLASSIC, view, beliefs, MARSHAL_PREMIUM)
        assert dear.mine[MARSHAL] - plain.mine[MARSHAL] == premium
        assert dear.theirs == plain.theirs
    assert MARSHAL_PREMIUM > 0 and BASE_VALUES[MARSHAL] > 0


def test_a_known_marshal_steps_away_from_the_enemy_marshal_rather_than_trade() -> None:
    game = endgame(facing_marshals(), moved=(sq(4, 4), sq(5, 4)), revealed=(sq(4, 4), sq(5, 4)))
    for seed in range(3):
        move = expert_move(game, seed)
        assert move.src == sq(4, 4), move
        assert move != Move(sq(4, 4), sq(5, 4))
        assert move.dst not in CLASSIC.neighbors[sq(5, 4)]  # still beside it
