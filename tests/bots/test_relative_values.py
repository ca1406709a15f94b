"""`expert` values a piece by what it can still beat, as Demon of Ignorance does; `hard`
keeps the fixed table."""

from __future__ import annotations

import pytest
from test_expert import CLASSIC, endgame, sq

from games.bots import ExpertPlayer, HardPlayer, suspicion
from games.bots.evaluation import BASE_VALUES
from games.bots.hard import MoveScorer
from games.bots.knowledge import build_beliefs
from games.bots.relative_values import SPY_DISCOUNT, alive_counts, relative_values
from games.engine import (
    BLUE,
    BOMB,
    COLONEL,
    FLAG,
    GENERAL,
    MARSHAL,
    MINER,
    RED,
    SCOUT,
    SERGEANT,
    SPY,
)
from games.engine.pieces import CAPTAIN, LIEUTENANT, MAJOR

FULL = dict(CLASSIC.army_counts)


def without(*ranks: int) -> dict[int, int]:
    return {rank: n for rank, n in FULL.items() if rank not in ranks}


def test_full_armies_keep_the_table_but_the_marshal_fears_the_spy() -> None:
    values = relative_values(BASE_VALUES, FULL, FULL)
    assert values[MARSHAL] == pytest.approx(BASE_VALUES[MARSHAL] * SPY_DISCOUNT)
    assert {r: v for r, v in values.items() if r != MARSHAL} == {
        r: v for r, v in BASE_VALUES.items() if r != MARSHAL
    }
    assert relative_values(BASE_VALUES, FULL, without(SPY))[MARSHAL] == BASE_VALUES[MARSHAL]


def test_a_rank_the_other_side_lacks_is_worth_the_next_one_down() -> None:
    """The other side has no General and no Colonel: our General beats what our Colonel
    beats, so it is worth a Colonel; the Colonel keeps its worth (a Major still meets it)."""
    values = relative_values(BASE_VALUES, without(SPY), without(GENERAL, COLONEL, SPY))
    assert values[GENERAL] == BASE_VALUES[COLONEL]
    assert values[COLONEL] == BASE_VALUES[COLONEL]
    assert values[MARSHAL] == BASE_VALUES[MARSHAL]
    assert values[MAJOR] == BASE_VALUES[MAJOR]


def test_a_rank_gone_from_both_sides_moves_every_higher_rank_down() -> None:
    own = other = without(COLONEL, SPY)
    values = relative_values(BASE_VALUES, own, other)
    assert values[MARSHAL] == BASE_VALUES[GENERAL]
    assert values[GENERAL] == BASE_VALUES[COLONEL]
    assert values[MAJOR] == BASE_VALUES[MAJOR]
    assert values[CAPTAIN] == BASE_VALUES[CAPTAIN]
    assert values[MINER] == BASE_VALUES[MINER]  # Miners, Scouts and the Spy keep their worth


def test_example_from_demon_of_ignorance() -> None:
    """Blue has a General, a Captain, a Miner and a Scout; Red a General, a Major and two
    Scouts. Blue's Captain beats only what a Sergeant beats; the ranks gone from both sides
    bring every General down to the worth of a Captain."""
    blue = {GENERAL: 1, CAPTAIN: 1, MINER: 1, SCOUT: 1}
    red = {GENERAL: 1, MAJOR: 1, SCOUT: 2}
    assert relative_values(BASE_VALUES, blue, red)[CAPTAIN] == BASE_VALUES[SERGEANT]
    assert relative_values(BASE_VALUES, red, blue)[GENERAL] == BASE_VALUES[CAPTAIN]
    assert relative_values(BASE_VALUES, blue, red)[GENERAL] == BASE_VALUES[CAPTAIN]


def test_alive_counts_take_away_the_captured() -> None:
    counts = alive_counts(FULL, [SCOUT, SCOUT, MARSHAL])
    assert counts[SCOUT] == FULL[SCOUT] - 2 and counts[MARSHAL] == 0 and counts[BOMB] == 6


def marshals_and_one_spy():
    """Both Marshals known and face to face, every rank from Sergeant to General still on
    both sides; only Blue still has its Spy."""
    pieces = {sq(0, 0): (RED, FLAG), sq(4, 4): (RED, MARSHAL), sq(5, 4): (BLUE, MARSHAL)}
    pieces[sq(9, 0)] = (BLUE, SPY)
    pieces[sq(9, 9)] = (BLUE, FLAG)
    for col, rank in enumerate((SERGEANT, LIEUTENANT, CAPTAIN, MAJOR, COLONEL, GENERAL)):
        pieces[sq(0, col + 2)] = (RED, rank)
        pieces[sq(9, col + 2)] = (BLUE, rank)
    return endgame(pieces, revealed=(sq(4, 4), sq(5, 4)))


def scorer(bot: HardPlayer) -> MoveScorer:
    bot.start(RED, CLASSIC)
    view = marshals_and_one_spy().view(RED)
    bot.tracker.observe(view)
    beliefs = build_beliefs(view, bot.tracker, flag_structure=True, adjust=suspicion.adjust)
    return MoveScorer(view, beliefs, bot)


def test_expert_wants_the_trade_of_marshals_that_takes_the_spys_target_away() -> None:
    values = scorer(ExpertPlayer(0)).values
    assert values.theirs[MARSHAL] - values.mine[MARSHAL] == pytest.approx(
        BASE_VALUES[MARSHAL] * (1 - SPY_DISCOUNT)
    )
    hard = scorer(HardPlayer(0)).values
    assert hard.theirs[MARSHAL] == hard.mine[MARSHAL] == BASE_VALUES[MARSHAL]
