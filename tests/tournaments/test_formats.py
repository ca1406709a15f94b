"""The formats on small examples worked out by hand."""

from tournaments.formats import Pairing, Player, arena_pairs, arena_points, standings, swiss_round
from tournaments.formats.roundrobin import berger_round, berger_rounds, rounds_needed


def boards(pairings: list[Pairing]) -> list[tuple[int, int | None]]:
    return [(p.red, p.blue) for p in pairings]


def test_berger_table_of_six_is_fides():
    assert [boards(r) for r in berger_rounds([1, 2, 3, 4, 5, 6])] == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


def test_odd_round_robin_gives_each_player_one_bye_and_meets_everyone_once():
    ids = [11, 12, 13, 14, 15]
    rounds = berger_rounds(ids)
    assert len(rounds) == rounds_needed(5) == 5
    byes = [p.red for r in rounds for p in r if p.bye]
    assert sorted(byes) == ids
    met = [frozenset((p.red, p.blue)) for r in rounds for p in r if not p.bye]
    assert len(met) == len(set(met)) == 10
    assert boards(rounds[0]) == [(12, 15), (13, 14), (11, None)]


def test_double_round_robin_swaps_colours():
    first = boards(berger_round([1, 2, 3, 4], 1))
    second = boards(berger_round([1, 2, 3, 4], 4, double=True))
    assert first == [(1, 4), (2, 3)]
    assert second == [(4, 1), (3, 2)]
    assert rounds_needed(4, double=True) == 6


PLAYERS = [Player(i, rating) for i, rating in [(1, 2000), (2, 1900), (3, 1800), (4, 1700),
                                              (5, 1600)]]  # fmt: skip


def played(pairing: Pairing, red_score: float) -> Pairing:
    return Pairing(pairing.round, pairing.red, pairing.blue, red_score,
                   None if pairing.bye else 1 - red_score)  # fmt: skip


def test_swiss_with_an_odd_count_byes_rematches_colours_and_tie_breaks():
    history: list[Pairing] = []
    r1 = swiss_round(PLAYERS, history, 1)
    assert boards(r1) == [(1, 3), (2, 4), (5, None)]  # top half against bottom half
    history += [played(r1[0], 1), played(r1[1], 0.5), played(r1[2], 1)]

    r2 = swiss_round(PLAYERS, history, 2)
    # 1 and 5 lead; 2 and 4 met, so 1 takes 2 and 5 takes 4; Red to whom had Blue
    assert boards(r2) == [(2, 1), (4, 5), (3, None)]
    history += [played(r2[0], 0), played(r2[1], 0), played(r2[2], 1)]

    r3 = swiss_round(PLAYERS, history, 3)
    assert boards(r3) == [(5, 1), (3, 2), (4, None)]
    history += [played(r3[0], 0.5), played(r3[1], 1), played(r3[2], 1)]

    table = standings(PLAYERS, history)
    got = [(s.player.id, s.points, s.buchholz, s.sonneborn_berger, s.rank) for s in table]
    assert got == [
        (1, 2.5, 5.0, 3.75, 1),
        (5, 2.5, 4.0, 2.75, 2),
        (3, 2.0, 3.0, 0.5, 3),
        (4, 1.5, 3.0, 0.25, 4),
        (2, 0.5, 6.0, 0.75, 5),
    ]


def test_swiss_never_repeats_a_pair_while_it_can_avoid_it():
    players = [Player(i, 2000 - i) for i in range(1, 9)]
    history: list[Pairing] = []
    for round_number in range(1, 6):
        pairing = swiss_round(players, history, round_number)
        history += [played(p, 1.0 if (p.red + round_number) % 3 else 0.5) for p in pairing]
    met = [frozenset((p.red, p.blue)) for p in history]
    assert len(met) == len(set(met)) == 20
    for player in players:
        reds = sum(p.red == player.id for p in history)
        assert 2 <= reds <= 3  # colours stay balanced
    # past what the unmet pairs allow, a round is still paired, with few rematches
    sixth = swiss_round(players, history, 6)
    assert sorted(i for p in sixth for i in (p.red, p.blue)) == list(range(1, 9))
    assert sum(frozenset((p.red, p.blue)) in set(met) for p in sixth) <= 2


def test_swiss_ties_share_a_rank():
    a, b = Player(1, 1500, "a"), Player(2, 1500, "b")
    table = standings([a, b], [Pairing(1, 1, 2, 0.5, 0.5)])
    assert [s.rank for s in table] == [1, 1]


def test_arena_streaks_double_after_two_wins_until_a_non_win():
    results = [1, 1, 1, 0.5, 1, 1, 0, 1]
    history = [Pairing(i, 7, 100 + i, s, 1 - s) for i, s in enumerate(results, 1)]
    # 2 + 2 + 4 (streak) + 2 (a draw on a streak) + 2 + 2 + 0 + 2
    assert arena_points(7, history) == (16, False)
    assert arena_points(7, history[:3]) == (8, True)
    assert arena_points(101, history[:1]) == (0, False)


def test_arena_pairs_neighbours_and_avoids_the_last_opponent():
    waiting = [Player(1, 1500), Player(2, 1600), Player(3, 1400), Player(4, 1450)]
    points = {1: 6, 2: 6, 3: 2, 4: 0}
    assert arena_pairs(waiting, points, {}, False) == [(2, 1), (3, 4)]
    assert arena_pairs(waiting, points, {2: 1, 1: 2}, False) == [(2, 3), (1, 4)]
    # two who just played wait while others play; alone in the event, they play again
    assert arena_pairs(waiting[:2], points, {2: 1, 1: 2}, True) == []
    assert arena_pairs(waiting[:2], points, {2: 1, 1: 2}, False) == [(2, 1)]


def test_the_formats_are_pure_python():
    import ast
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "tournaments" / "formats"
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
                module = getattr(node, "module", None) or ""
                for name in [module, *names]:
                    assert not name.startswith(("django", "games", "players")), (path, name)
