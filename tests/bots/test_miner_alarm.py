"""Enemy Miners near a flag walled in by bombs: the threat expert sees in them."""

from __future__ import annotations

from test_expert import CLASSIC, endgame, sq

from games.bots import suspicion
from games.bots.expert import MINER_ALARM, ExpertPlayer
from games.bots.hard import FLAG_GUARD, HardPlayer, MoveScorer
from games.bots.knowledge import build_beliefs
from games.engine import (
    BLUE,
    BOMB,
    CAPTAIN,
    FLAG,
    GENERAL,
    MARSHAL,
    MINER,
    RED,
    SERGEANT,
)


def scorer_for(bot: HardPlayer, walled: bool) -> MoveScorer:
    pieces = {
        sq(9, 0): (RED, FLAG),
        sq(8, 0): (RED, BOMB),
        sq(9, 1): (RED, BOMB if walled else CAPTAIN),
        sq(5, 5): (RED, MARSHAL),
        sq(5, 8): (RED, GENERAL),
        sq(7, 0): (BLUE, MINER),  # two steps from our flag, known
        sq(9, 2): (BLUE, SERGEANT),  # two steps as well, known
        sq(0, 9): (BLUE, FLAG),
    }
    if walled:
        pieces[sq(6, 6)] = (RED, CAPTAIN)
    game = endgame(pieces, revealed=(sq(7, 0), sq(9, 2)))
    bot.start(RED, CLASSIC)
    view = game.view(RED)
    bot.tracker.observe(view)
    beliefs = build_beliefs(view, bot.tracker, flag_structure=True, adjust=suspicion.adjust)
    return MoveScorer(view, beliefs, bot)


def test_a_known_miner_near_a_walled_flag_threatens_it_more() -> None:
    threats = scorer_for(ExpertPlayer(1, budget=0.1), walled=True).flag_threat
    assert threats[sq(9, 2)] == FLAG_GUARD * 0.5
    assert threats[sq(7, 0)] == FLAG_GUARD * 0.5 * (1 + MINER_ALARM)


def test_an_open_flag_and_hard_see_every_piece_alike() -> None:
    open_flag = scorer_for(ExpertPlayer(1, budget=0.1), walled=False).flag_threat
    assert open_flag[sq(7, 0)] == open_flag[sq(9, 2)] == FLAG_GUARD * 0.5
    hard = scorer_for(HardPlayer(1), walled=True).flag_threat
    assert hard[sq(7, 0)] == hard[sq(9, 2)] == FLAG_GUARD * 0.5
