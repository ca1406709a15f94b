"""Glicko-2 (Glickman, "Example of the Glicko-2 system") through the `glicko2` package.

glicko2 2.1.0 has one slip in step 5: its f(x) uses mu^2 (the rating) where the paper has
phi^2 (the deviation). In the paper's own example mu = 0 (1500), so it shows only in the
volatility's sixth decimal; at other ratings the volatility drifts further
(tests/players/test_glicko.py: Glicko-2 is the same shifted by any rating, the package is
not). `PaperPlayer` puts phi^2 back and uses the rest of the package unchanged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import glicko2

DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
# Provisional (shown with "?") while the deviation is above this, as on Lichess.
PROVISIONAL_DEVIATION = 110.0
MIN_DEVIATION = 30.0  # a floor, so a rating never freezes


class PaperPlayer(glicko2.Player):
    def _f(self, x: float, delta: float, v: float, a: float) -> float:
        phi2 = self._Player__rd**2  # the package's private deviation (glicko-2 scale)
        ex = math.exp(x)
        num = ex * (delta**2 - phi2 - v - ex)
        return num / (2 * (phi2 + v + ex) ** 2) - (x - a) / (self._tau**2)


@dataclass(frozen=True)
class Standing:
    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION


def rate(player: Standing, results: list[tuple[Standing, float]]) -> Standing:
    """`player` after one rating period of `results` (opponent, score 1 / 0.5 / 0)."""
    p = PaperPlayer(player.rating, player.deviation, player.volatility)
    p.update_player(
        [o.rating for o, _ in results], [o.deviation for o, _ in results], [s for _, s in results]
    )
    deviation = min(max(p.rd, MIN_DEVIATION), DEFAULT_DEVIATION)
    return Standing(p.rating, deviation, p.vol)


def idle(player: Standing, periods: int) -> Standing:
    """Step 6 of the paper for `periods` rating periods (days) without a game: the deviation
    grows (phi* = sqrt(phi^2 + sigma^2) each period), up to a newcomer's."""
    if periods <= 0:
        return player
    p = PaperPlayer(player.rating, player.deviation, player.volatility)
    for _ in range(min(periods, 10_000)):
        p.did_not_compete()
        if p.rd >= DEFAULT_DEVIATION:
            break
    return Standing(player.rating, min(p.rd, DEFAULT_DEVIATION), player.volatility)


def label(rating: float, deviation: float) -> str:
    """How a rating reads everywhere: "1523", or "1500?" while provisional."""
    mark = "?" if deviation > PROVISIONAL_DEVIATION else ""
    return f"{round(rating)}{mark}"
