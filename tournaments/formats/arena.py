"""Arena: during a time window, a player who finishes a game is paired again at once with
the waiting player of the nearest score and rating. Points as Lichess's arena counts them:
a win 2, a draw 1, a loss 0; after two wins in a row every game is worth double (a win 4, a
draw 2) until a game that is not a win ends the streak."""

from __future__ import annotations

from collections.abc import Iterable

from .results import Pairing, Player

WIN, DRAW = 2, 1


def arena_points(player: int, pairings: Iterable[Pairing]) -> tuple[int, bool]:
    """The player's points over their played games, in order, and whether they are on a
    streak now (their next win counts double)."""
    total, wins_in_row = 0, 0
    for p in sorted(pairings, key=lambda p: (p.round, p.red)):
        if not p.played or player not in (p.red, p.blue) or p.bye:
            continue
        score = p.score_of(player)
        double = wins_in_row >= 2
        if score == 1.0:
            total += WIN * (2 if double else 1)
            wins_in_row += 1
        else:
            if score == 0.5:
                total += DRAW * (2 if double else 1)
            wins_in_row = 0
    return total, wins_in_row >= 2


def arena_pairs(waiting: Iterable[Player], points: dict[int, float], last_opponent: dict[int, int],
                others_playing: bool) -> list[tuple[int, int]]:  # fmt: skip
    """Pairs among the players waiting for a game: neighbours by points, then rating; never
    the opponent just played while someone else may come free (`others_playing`). An odd
    player out waits for the next game to end. The first of each pair has Red."""
    order = sorted(waiting, key=lambda p: (-points.get(p.id, 0.0), -p.rating, p.id))
    pairs: list[tuple[int, int]] = []
    while len(order) >= 2:
        first = order.pop(0)
        pick = next((i for i, p in enumerate(order) if last_opponent.get(first.id) != p.id), None)
        if pick is None:  # only the last opponent is free
            if others_playing:
                continue
            pick = 0
        pairs.append((first.id, order.pop(pick).id))
    return pairs
