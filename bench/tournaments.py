"""How long pairing and the standings page take for an event of 200 entrants.

    DATABASE_URL=postgres://... python -m bench.tournaments [--players 200] [--rounds 5] [--runs 10]

A benchmark, not a test. First the pure formats alone: a Swiss round, an arena's pairing of
everyone at once and a round-robin round for `--players`. Then on a throwaway database
(bench_tournaments_<pid>): a Swiss of `--players` accounts run for `--rounds` rounds through
the services (each round paired and its games opened by the scheduler's step, each game then
resigned through the game services), timing each round's pairing step; then the event's page
and the live socket's fragment rendered `--runs` times each, with their SQL query counts. The
database is dropped at the end. Figures: docs/tournaments.md.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from datetime import timedelta


def timed(call, runs: int) -> tuple[float, float]:  # noqa: ANN001
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        call()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times), max(times)


def formats_alone(players: int, rounds: int, runs: int) -> None:
    from tournaments.formats import Pairing, Player, arena_pairs, berger_round, swiss_round

    rng = random.Random(7)
    field = [Player(i, rng.gauss(1500, 200), f"p{i}") for i in range(players)]
    history: list[Pairing] = []
    for number in range(1, rounds + 1):
        if number == rounds:
            median, worst = timed(lambda n=number: swiss_round(field, history, n), runs)
            print(f"Swiss round {number} of {players}: "
                  f"median {median:6.1f} ms  max {worst:6.1f} ms")  # fmt: skip
        for p in swiss_round(field, history, number):
            score = None if p.blue is None else rng.choice((1.0, 0.5, 0.0))
            history.append(Pairing(number, p.red, p.blue, score if p.blue else 1.0,
                                   None if p.blue is None else 1 - score))  # fmt: skip
    points = {p.id: rng.randint(0, 20) for p in field}
    median, worst = timed(lambda: arena_pairs(field, points, {}, True), runs)
    print(f"arena pairing of {players} free:  median {median:6.1f} ms  max {worst:6.1f} ms")
    ids = [p.id for p in field]
    median, worst = timed(lambda: berger_round(ids, players // 2), runs)
    print(f"round-robin round of {players}:   median {median:6.1f} ms  max {worst:6.1f} ms")


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stratego_site.settings")
    import django
    from django.conf import settings

    django.setup()
    name = f"bench_tournaments_{os.getpid()}"
    settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = name


def run_event(players: int, rounds: int) -> int:
    from django.contrib.auth.models import User
    from django.utils import timezone

    from games import services
    from games.domain.identity import Identity
    from tournaments import entries, events
    from tournaments import rounds as steps
    from tournaments.models import Tournament

    host = User.objects.create_user("host")
    settings = events.Settings(name="Bench Swiss", variant="mini", rounds=rounds, rated=True,
                               starts_at=timezone.now() + timedelta(minutes=1))  # fmt: skip
    swiss = events.create(host, settings)
    Tournament.objects.filter(pk=swiss.pk).update(round_pause_seconds=0, grace_seconds=3600)
    for i in range(players):
        entries.enter(swiss.pk, User.objects.create_user(f"bench{i:03d}"))
    rng = random.Random(3)
    now = timezone.now() + timedelta(minutes=2)
    for number in range(1, rounds + 1):
        began = time.perf_counter()
        steps.advance(swiss.pk, now)
        took = time.perf_counter() - began
        games = swiss.pairings.filter(round=number).exclude(game=None).count()
        print(f"round {number}: paired and {games} games opened in {took * 1000:7.0f} ms")
        for pairing in swiss.pairings.filter(round=number, red_score=None).select_related("game"):
            loser = rng.choice((pairing.red, pairing.blue))
            services.resign(pairing.game.public_id, Identity(loser.user_id, None, loser.name))
        now += timedelta(seconds=1)
    steps.advance(swiss.pk, now)
    return swiss.pk


def measure(call, runs: int) -> tuple[float, float, int]:  # noqa: ANN001
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    times = []
    for _ in range(runs):
        reset_queries()  # (the log holds 9000 at most: a full one counts nothing new)
        with CaptureQueriesContext(connection) as queries:
            began = time.perf_counter()
            call()
            times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times), max(times), len(queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    formats_alone(args.players, args.rounds, args.runs)
    setup_django()
    from django.test import Client
    from django.test.utils import setup_databases, setup_test_environment, teardown_databases

    from tournaments import pages
    from tournaments.models import Tournament

    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    try:
        pk = run_event(args.players, args.rounds)
        client = Client()

        def page() -> None:
            assert client.get(f"/tournaments/{pk}/").status_code == 200

        median, worst, queries = measure(page, args.runs)
        print(f"event page ({args.players} players, {args.rounds} rounds): "
              f"median {median:6.1f} ms  max {worst:6.1f} ms  {queries} queries")  # fmt: skip
        tournament = Tournament.objects.get(pk=pk)
        median, worst, queries = measure(lambda: pages.live_html(tournament), args.runs)
        print(f"socket fragment:                    "
              f"median {median:6.1f} ms  max {worst:6.1f} ms  {queries} queries")  # fmt: skip
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
