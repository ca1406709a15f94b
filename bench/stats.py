"""Statistics of the bench: percentiles, summaries, the knee of the open-loop curve."""

from __future__ import annotations

import math
from collections.abc import Sequence

KNEE_P99_MS = 50.0


def percentile(values: Sequence[float], p: float) -> float | None:
    """The nearest-rank percentile (p in 0..100) of `values`; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def summary(values_ms: Sequence[float]) -> dict:
    """count, p50, p99, max of latencies in milliseconds (rounded to 0.01 ms)."""

    def r(x: float | None) -> float | None:
        return None if x is None else round(x, 2)

    return {
        "count": len(values_ms),
        "p50": r(percentile(values_ms, 50)),
        "p99": r(percentile(values_ms, 99)),
        "max": r(max(values_ms) if values_ms else None),
    }


def knee(steps: Sequence[dict], limit_ms: float = KNEE_P99_MS) -> float | None:
    """The highest target rate whose step had p99 <= limit, no error, and (so a server that
    fell behind does not pass for a fast one) achieved at least 95% of its target rate."""
    good = [
        s["rate"]
        for s in steps
        if s.get("p99") is not None
        and s["p99"] <= limit_ms
        and s["errors"] == 0
        and s["achieved"] >= 0.95 * s["rate"]
    ]
    return max(good) if good else None


def version_gaps(received: set[int], first: int, last: int) -> int:
    """How many versions in first..last a socket never received."""
    return sum(1 for v in range(first, last + 1) if v not in received)
