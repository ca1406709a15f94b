"""The standings of an event from its rows, through the pure formats."""

from __future__ import annotations

from dataclasses import dataclass

from games.domain.identity import Identity
from players import ratings

from . import formats
from .formats.arena import arena_points
from .models import Entrant, Pairing, Tournament


def rating_now(entrant: Entrant, variant: str) -> float:
    if entrant.user_id is not None:
        return ratings.rating_of(Identity(entrant.user_id, None, entrant.name), variant)
    found = ratings.Rating.objects.filter(computer=entrant.computer, variant=variant).first()
    return found.rating if found else ratings.glicko.DEFAULT_RATING


def as_player(entrant: Entrant) -> formats.Player:
    return formats.Player(entrant.pk, entrant.rating_start or 1500.0, entrant.name)


def as_pairing(row: Pairing) -> formats.Pairing:
    return formats.Pairing(row.round, row.red_id, row.blue_id, row.red_score, row.blue_score)


@dataclass
class Row:
    """One line of the table as the pages show it."""

    standing: formats.Standing
    entrant: Entrant
    streak: bool = False

    @property
    def rating_change(self) -> float | None:
        e = self.entrant
        if e.rating_start is None or e.rating_end is None:
            return None
        return e.rating_end - e.rating_start


def compute(tournament: Tournament, entrants: list[Entrant] | None = None,
            pairings: list[Pairing] | None = None) -> list[Row]:  # fmt: skip
    """The table, best first. Before the start, the entrants by rating."""
    if entrants is None:
        entrants = list(tournament.entrants.all())
    if pairings is None:
        pairings = list(tournament.pairings.all())
    by_id = {e.pk: e for e in entrants}
    players = [as_player(e) for e in entrants]
    played = [as_pairing(p) for p in pairings]
    points = None
    streaks: dict[int, bool] = {}
    if tournament.format == Tournament.Format.ARENA:
        points = {}
        for player in players:
            points[player.id], streaks[player.id] = arena_points(player.id, played)
    table = formats.standings(players, played, points)
    return [Row(s, by_id[s.player.id], streaks.get(s.player.id, False)) for s in table]
