"""Swiss pairing for a fixed number of rounds: players meet others with the same score (the
top half of a score group against its bottom half, as the Dutch system does), then the
nearest score; nobody meets the same opponent twice; colours go to whoever had the other one
more often (then: who did not have it last round, then the higher ranked alternating by
round); with an odd count the lowest ranked player who has not had one gets a bye.

A search with backtracking finds the pairings; when no pairing without a rematch exists
(more rounds than opponents), the one that does best with rematches allowed is used."""

from __future__ import annotations

from collections.abc import Iterable

from .results import Pairing, Player, scores

SEARCH_BUDGET = 50_000  # tries before giving up on a round without rematches


def ranked(players: Iterable[Player], points: dict[int, float]) -> list[Player]:
    return sorted(players, key=lambda p: (-points.get(p.id, 0.0), -p.rating, p.name, p.id))


def colour_balance(history: Iterable[Pairing]) -> tuple[dict[int, int], dict[int, int]]:
    """Per player: reds minus blues over the games played, and the last colour played."""
    balance: dict[int, int] = {}
    last: dict[int, int] = {}
    for p in sorted(history, key=lambda p: p.round):
        if p.bye or p.blue is None:
            continue
        balance[p.red] = balance.get(p.red, 0) + 1
        balance[p.blue] = balance.get(p.blue, 0) - 1
        last[p.red], last[p.blue] = 0, 1
    return balance, last


def choose_bye(order: list[Player], history: list[Pairing]) -> Player:
    had = {p.red for p in history if p.bye}
    for player in reversed(order):
        if player.id not in had:
            return player
    return order[-1]


def swiss_round(players: Iterable[Player], history: Iterable[Pairing], round_number: int
                ) -> list[Pairing]:  # fmt: skip
    """The pairings of `round_number` for `players` (those still in the event), given every
    earlier pairing (`history`). The bye, if any, comes last."""
    history = list(history)
    points = scores(history)
    order = ranked(players, points)
    bye = None
    if len(order) % 2:
        bye = choose_bye(order, history)
        order = [p for p in order if p.id != bye.id]
    met = {frozenset((p.red, p.blue)) for p in history if p.blue is not None}
    pairs = search(order, points, met) or search(order, points, met, strict=False) or []
    balance, last = colour_balance(history)
    rank = {p.id: i for i, p in enumerate(order)}
    boards = [colours(a, b, balance, last, rank, round_number) for a, b in pairs]
    boards.sort(key=lambda rb: min(rank[rb[0]], rank[rb[1]]))
    pairings = [Pairing(round_number, red, blue) for red, blue in boards]
    if bye is not None:
        pairings.append(Pairing(round_number, bye.id, None))
    return pairings


def search(order: list[Player], points: dict[int, float], met: set[frozenset], strict: bool = True
           ) -> list[tuple[int, int]] | None:  # fmt: skip
    """Pairs of ids covering `order` with no pair in `met`, preferring equal scores and the
    top-half-against-bottom-half order; None when there is none (or the budget ran out).
    Not `strict`: pairs in `met` are allowed, tried last."""
    budget = [SEARCH_BUDGET]

    def candidates(rest: list[Player]) -> list[int]:
        top = points.get(rest[0].id, 0.0)
        group = sum(1 for p in rest if points.get(p.id, 0.0) == top)
        ideal = max(1, group // 2)

        def key(j: int) -> tuple:
            diff = abs(top - points.get(rest[j].id, 0.0))
            again = frozenset((rest[0].id, rest[j].id)) in met
            return (again, diff, abs(j - ideal) if diff == 0 else j)

        return sorted(range(1, len(rest)), key=key)

    def go(rest: list[Player]) -> list[tuple[int, int]] | None:
        if not rest:
            return []
        first = rest[0]
        for j in candidates(rest):
            budget[0] -= 1
            if budget[0] < 0:
                return None
            other = rest[j]
            if strict and frozenset((first.id, other.id)) in met:
                continue
            found = go(rest[1:j] + rest[j + 1 :])
            if found is not None:
                return [(first.id, other.id), *found]
        return None

    return go(order)


def colours(a: int, b: int, balance: dict[int, int], last: dict[int, int], rank: dict[int, int],
            round_number: int) -> tuple[int, int]:  # fmt: skip
    """(red, blue) for two players: whoever had Red more often gets Blue."""
    if balance.get(a, 0) != balance.get(b, 0):
        return (a, b) if balance.get(a, 0) < balance.get(b, 0) else (b, a)
    if last.get(a) != last.get(b) and a in last and b in last:
        return (a, b) if last[a] == 1 else (b, a)
    higher, lower = (a, b) if rank[a] < rank[b] else (b, a)
    return (higher, lower) if round_number % 2 else (lower, higher)
