"""The enemy Spy's strike at `expert`'s Marshal is weighed by the beliefs, not by the luck of
the worlds drawn: the same step next to a piece that may be the Spy is worth the same
whatever the worlds were."""

from __future__ import annotations

import contextlib
import random
import statistics
from unittest import mock

import pytest
from test_expert import CLASSIC, endgame, expert_move, sq

from games.bots import ExpertPlayer, spy_strike, suspicion
from games.bots.expert import think
from games.bots.hard import MoveScorer
from games.bots.knowledge import build_beliefs
from games.bots.search import GAIN_DECAY, Clock, sample_world
from games.bots.spy_strike import STRIKE_WEIGHT, SpyStrike
from games.engine import BLUE, BOMB, FLAG, MARSHAL, RED, SCOUT, SERGEANT, SPY, Move
from games.engine.pieces import LIEUTENANT, MAJOR, MINER

MARSHAL_AT = sq(4, 4)
NEXT_TO_HIDDEN = sq(5, 4)  # next to Blue's unmoved piece on (6, 4)
AWAY = sq(3, 4)
HIDDEN = sq(6, 4)


def base_pieces() -> dict[int, tuple[int, int]]:
    return {
        sq(0, 0): (RED, FLAG),
        sq(0, 1): (RED, BOMB),
        sq(1, 0): (RED, BOMB),
        sq(0, 8): (RED, SERGEANT),  # the game goes on without the Marshal
        MARSHAL_AT: (RED, MARSHAL),
        HIDDEN: (BLUE, SCOUT),
        sq(9, 0): (BLUE, SPY),
        sq(9, 1): (BLUE, SCOUT),
        sq(9, 2): (BLUE, BOMB),
        sq(9, 9): (BLUE, FLAG),
        sq(9, 8): (BLUE, BOMB),
        sq(8, 9): (BLUE, BOMB),
    }


def position():
    """Red's known Marshal two steps from an unmoved Blue piece that may be the Spy; Blue's
    other hidden pieces (Spy, Scout, bombs, flag) stand far away on its back row."""
    pieces = base_pieces()
    return endgame(pieces, revealed=(MARSHAL_AT,))


def scorer_for(bot: ExpertPlayer, view) -> MoveScorer:
    """What `ExpertPlayer.move` builds before it searches."""
    bot.tracker.observe(view)
    beliefs = build_beliefs(view, bot.tracker, flag_structure=True, adjust=suspicion.adjust)
    return MoveScorer(view, beliefs, bot)


def fresh_scorer() -> MoveScorer:
    bot = ExpertPlayer(0)
    bot.start(RED, CLASSIC)
    return scorer_for(bot, position().view(RED))


def test_the_chance_is_the_beliefs_spy_next_to_where_the_marshal_stands() -> None:
    scorer = fresh_scorer()
    strike = SpyStrike(scorer)
    spy = scorer.beliefs.p(HIDDEN, SPY)
    assert 0.05 < spy < 0.95  # a real doubt
    assert strike.chance(Move(MARSHAL_AT, NEXT_TO_HIDDEN)) == pytest.approx(spy)
    assert strike.chance(Move(MARSHAL_AT, AWAY)) == 0.0
    assert strike.loss == pytest.approx(scorer.values.mine[MARSHAL] * GAIN_DECAY)


def test_a_battle_that_leaves_no_marshal_or_no_game_has_no_strike_after_it() -> None:
    """The Marshal attacks a piece next to another hidden piece: no strike where the
    defender is a bomb (the Marshal dies) or the flag (the game ends), nor from the
    defender itself (it dies, or it was no Spy)."""
    pieces = {
        sq(0, 0): (RED, FLAG),
        sq(0, 1): (RED, BOMB),
        sq(0, 8): (RED, SERGEANT),
        sq(5, 4): (RED, MARSHAL),
        sq(6, 4): (BLUE, BOMB),
        sq(7, 4): (BLUE, SPY),
        sq(9, 9): (BLUE, FLAG),
        sq(9, 0): (BLUE, SERGEANT),
    }
    view = endgame(pieces, revealed=(sq(5, 4),)).view(RED)
    bot = ExpertPlayer(0)
    bot.start(RED, CLASSIC)
    scorer = scorer_for(bot, view)
    strike = SpyStrike(scorer)
    attack = Move(sq(5, 4), sq(6, 4))
    beliefs = scorer.beliefs
    stays = 1 - beliefs.p(sq(6, 4), BOMB) - beliefs.p(sq(6, 4), FLAG)
    assert 0 < stays < 1
    assert strike.chance(attack) == pytest.approx(beliefs.p(sq(7, 4), SPY) * stays)
    rng = random.Random(5)
    for _ in range(400):
        strike.watch(sample_world(view, beliefs, rng))
    for spy, world in strike.worlds:
        if spy == sq(7, 4):
            assert world.board[sq(6, 4)].rank != SPY
    # the share drawn is an estimate of the chance (the worlds follow the beliefs)
    assert strike.drawn(attack, 400) == pytest.approx(strike.chance(attack), abs=0.08)


def step_values(seed: int, weigh: bool) -> tuple[float, float]:
    """think()'s values of the step next to the hidden piece, less the step away, and how
    many worlds the deepest pass counted, for one seed."""
    game = position()
    view = game.view(RED)
    bot = ExpertPlayer(seed)
    bot.start(RED, CLASSIC)
    scorer = scorer_for(bot, view)
    candidates = [Move(MARSHAL_AT, NEXT_TO_HIDDEN), Move(MARSHAL_AT, AWAY)]
    stats: dict[str, float] = {}
    patch = (
        mock.patch.object(SpyStrike, "correction", lambda self, move, worlds: 0.0)
        if not weigh
        else contextlib.nullcontext()
    )
    with patch:
        found = think(view, scorer, candidates, Clock(10.0, 1500), random.Random(seed), stats)
    assert found is not None
    return found[candidates[0]] - found[candidates[1]], scorer.beliefs.p(HIDDEN, SPY)


def test_the_step_is_worth_the_same_whatever_the_worlds_drew() -> None:
    """Over eight seeds, the worlds drew the piece next to the step as the Spy in different
    shares, and the step's value followed them; weighed by the beliefs it does not, and
    it is what the Marshal's loss to the game by its chance says."""
    loss = fresh_scorer().values.mine[MARSHAL] * GAIN_DECAY
    drawn = [step_values(seed, weigh=False)[0] for seed in range(8)]
    weighed = [step_values(seed, weigh=True) for seed in range(8)]
    assert max(drawn) - min(drawn) > 5.0  # the luck of the draw, without
    values = [value for value, _ in weighed]
    assert max(values) - min(values) < 0.5
    spy = weighed[0][1]
    assert statistics.fmean(values) == pytest.approx(-spy * loss * STRIKE_WEIGHT, abs=0.5)


def test_the_marshal_does_not_risk_the_spy_for_a_major(monkeypatch: pytest.MonkeyPatch) -> None:
    # a board made by hand: where people put each rank would say other things of its squares
    monkeypatch.setattr(ExpertPlayer, "people_prior", False)
    """Our known Marshal can take a known Major, which leaves it next to an unmoved piece
    that is the Spy about one time in five. The Major is worth more than the Marshal's
    material at that chance, not more than what losing the Marshal costs the game: expert
    leaves the Major; counting the strike at the Marshal's material only, it takes it."""
    prey = NEXT_TO_HIDDEN
    pieces = base_pieces() | {
        sq(1, 8): (RED, LIEUTENANT),
        prey: (BLUE, MAJOR),
        sq(8, 0): (BLUE, SERGEANT),
        sq(8, 1): (BLUE, SERGEANT),
        sq(8, 2): (BLUE, MINER),
        sq(8, 3): (BLUE, SCOUT),
        sq(9, 3): (BLUE, MINER),
        sq(9, 4): (BLUE, LIEUTENANT),
        sq(8, 7): (BLUE, SCOUT),
        sq(9, 7): (BLUE, SERGEANT),
    }
    take = Move(MARSHAL_AT, prey)

    def takes(seed: int) -> bool:
        return expert_move(endgame(pieces, revealed=(MARSHAL_AT, prey)), seed=seed) == take

    bot = ExpertPlayer(0)
    bot.start(RED, CLASSIC)
    spy = scorer_for(bot, endgame(pieces, revealed=(MARSHAL_AT, prey)).view(RED)).beliefs
    assert 0.1 < spy.p(HIDDEN, SPY) < 0.3
    assert not any(takes(seed) for seed in range(4))
    with mock.patch.object(spy_strike, "STRIKE_WEIGHT", 1.0):
        assert any(takes(seed) for seed in range(4))
