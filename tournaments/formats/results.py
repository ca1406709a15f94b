"""What every format shares: a player, a pairing and its result, and the standings.

Scores are in points per game: 1 a win, 0.5 a draw, 0 a loss (a forfeit too); a bye is worth
BYE_POINTS. An arena counts its own points (arena.py) from the same pairings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

BYE_POINTS = 1.0


@dataclass(frozen=True)
class Player:
    id: int
    rating: float = 1500.0
    name: str = ""


@dataclass(frozen=True)
class Pairing:
    """One board of one round. `blue` None is a bye for `red`. The scores stay None until it
    is played; a double forfeit is 0 and 0."""

    round: int
    red: int
    blue: int | None
    red_score: float | None = None
    blue_score: float | None = None

    @property
    def bye(self) -> bool:
        return self.blue is None

    @property
    def played(self) -> bool:
        return self.red_score is not None

    def score_of(self, player: int) -> float | None:
        return self.red_score if player == self.red else self.blue_score

    def opponent_of(self, player: int) -> int | None:
        return self.blue if player == self.red else self.red

    def color_of(self, player: int) -> int:
        return 0 if player == self.red else 1


@dataclass
class Standing:
    player: Player
    points: float = 0.0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    rank: int = 0
    history: list[Pairing] = field(default_factory=list)


def scores(pairings: Iterable[Pairing]) -> dict[int, float]:
    """Each player's points over the played pairings (a bye counts BYE_POINTS)."""
    total: dict[int, float] = {}
    for p in pairings:
        if not p.played:
            continue
        total[p.red] = total.get(p.red, 0.0) + (BYE_POINTS if p.bye else p.red_score or 0.0)
        if p.blue is not None:
            total[p.blue] = total.get(p.blue, 0.0) + (p.blue_score or 0.0)
    return total


def standings(
    players: Iterable[Player],
    pairings: Iterable[Pairing],
    points: dict[int, float] | None = None,
) -> list[Standing]:
    """The table, best first: by points, then Buchholz (the sum of the opponents' points),
    then Sonneborn-Berger (the points of the opponents beaten, and half of those drawn),
    then rating. A bye adds nothing to either tie-break. `points` replaces the plain sum
    (an arena's points with streaks); the tie-breaks always use the plain one."""
    rows = {p.id: Standing(p) for p in players}
    played = [p for p in pairings if p.played]
    plain = scores(played)
    for pairing in played:
        for who in (pairing.red, pairing.blue):
            if who is None or who not in rows:
                continue
            row = rows[who]
            row.history.append(pairing)
            if pairing.bye:
                continue
            mine = pairing.score_of(who) or 0.0
            other = pairing.opponent_of(who)
            theirs = plain.get(other, 0.0) if other is not None else 0.0
            row.games += 1
            row.buchholz += theirs
            if mine == 1.0:
                row.wins += 1
                row.sonneborn_berger += theirs
            elif mine == 0.5:
                row.draws += 1
                row.sonneborn_berger += theirs / 2
            else:
                row.losses += 1
    for who, row in rows.items():
        row.points = (points if points is not None else plain).get(who, 0.0)
    ordered = sorted(rows.values(), key=rank_key)
    previous = None
    for place, row in enumerate(ordered, 1):
        key = rank_key(row)[:3]
        row.rank = previous[1] if previous and previous[0] == key else place
        previous = (key, row.rank)
    return ordered


def rank_key(row: Standing) -> tuple:
    return (-row.points, -row.buchholz, -row.sonneborn_berger, -row.player.rating,
            row.player.name, row.player.id)  # fmt: skip
