"""The bench's statistics (bench/stats.py): percentiles, the knee, version gaps."""

from __future__ import annotations

from bench.stats import knee, percentile, summary, version_gaps


def test_nearest_rank_percentiles():
    values = list(range(1, 101))  # 1..100
    assert percentile(values, 50) == 50
    assert percentile(values, 99) == 99
    assert percentile(values, 100) == 100
    assert percentile([7.0], 99) == 7.0
    assert percentile([], 50) is None
    assert percentile([5, 1, 3], 50) == 3  # unsorted input


def test_summary_rounds_and_counts():
    assert summary([1.004, 2.0, 3.0]) == {"count": 3, "p50": 2.0, "p99": 3.0, "max": 3.0}
    assert summary([]) == {"count": 0, "p50": None, "p99": None, "max": None}


def step(rate, p99, errors=0, achieved=None):
    return {"rate": rate, "p99": p99, "errors": errors,
            "achieved": rate if achieved is None else achieved}  # fmt: skip


def test_knee_is_the_highest_rate_within_the_limit():
    steps = [step(25, 12), step(50, 30), step(100, 49.9), step(200, 80), step(300, 40)]
    assert knee(steps) == 300  # the highest passing rate, even after a failing one
    assert knee(steps[:4]) == 100


def test_knee_refuses_errors_a_missed_rate_and_skipped_steps():
    assert knee([step(25, 10, errors=1)]) is None
    assert knee([step(25, 10), step(50, 10, achieved=40)]) == 25  # 80% of the target
    assert knee([step(25, 10), {"rate": 50, "skipped": "saturated"}]) == 25
    assert knee([step(25, 51)]) is None
    assert knee([]) is None


def test_version_gaps():
    assert version_gaps({3, 4, 6}, 3, 7) == 2  # 5 and 7
    assert version_gaps(set(), 5, 4) == 0
