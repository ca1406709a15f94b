"""Glicko-2 against the worked example of Glickman's paper, and the package's slip."""

from __future__ import annotations

import glicko2
import pytest

from players.glicko import PaperPlayer, Standing, idle, label, rate

OPPONENTS = [(1400, 30), (1550, 100), (1700, 300)]
SCORES = [1, 0, 0]


def example(shift: float, cls=PaperPlayer) -> tuple[float, float, float]:
    p = cls(1500 + shift, 200, 0.06)
    p.update_player([r + shift for r, _ in OPPONENTS], [d for _, d in OPPONENTS], SCORES)
    return p.rating - shift, p.rd, p.vol


def test_the_papers_worked_example():
    new = rate(
        Standing(1500, 200, 0.06),
        [(Standing(r, d), s) for (r, d), s in zip(OPPONENTS, SCORES, strict=True)],
    )
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


@pytest.mark.parametrize("shift", [-400, 300, 900])
def test_the_result_is_the_same_shifted_by_any_rating(shift):
    assert example(shift) == pytest.approx(example(0), abs=1e-9)


def test_the_package_alone_is_not_and_why_players_glicko_mends_it():
    # glicko2 2.1.0 uses mu^2 where step 5 has phi^2: the volatility depends on the rating.
    assert example(900, glicko2.Player)[2] != pytest.approx(example(0, glicko2.Player)[2], abs=1e-7)
    assert example(900, glicko2.Player)[2] != pytest.approx(example(900)[2], abs=1e-7)


def test_a_win_raises_a_loss_lowers_and_a_new_rating_is_provisional():
    fresh = Standing()
    assert rate(fresh, [(Standing(), 1.0)]).rating > 1500 > rate(fresh, [(Standing(), 0.0)]).rating
    assert label(1500, 350) == "1500?" and label(1523.4, 80) == "1523"
    assert fresh.provisional and not Standing(1500, 60).provisional


def test_a_rating_left_alone_grows_less_certain_up_to_a_newcomers():
    settled = Standing(1700, 60, 0.06)
    month, decade = idle(settled, 30), idle(settled, 3650)
    assert idle(settled, 0) == settled and month.rating == 1700
    assert 60 < month.deviation < 100 and decade.deviation == 350
