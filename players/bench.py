"""How long the leaderboard and a profile take to render with a few hundred rated games.

    DATABASE_URL=postgres://... python -m players.bench [--games 400] [--players 30] [--runs 20]

A benchmark, not a test: it makes a throwaway database (bench_players_<pid>), writes the
games straight into it (finished, rated, each rated through players.ratings as the services
would), renders each page `--runs` times with Django's test client, prints the median and the
slowest time and the number of SQL queries, and drops the database.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from datetime import timedelta


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stratego_site.settings")
    import django
    from django.conf import settings

    django.setup()
    settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = f"bench_players_{os.getpid()}"


def make_games(n_games: int, n_players: int, seed: int = 1) -> list[str]:
    from django.contrib.auth.models import User
    from django.db import transaction
    from django.utils import timezone

    from games.domain.models import Game
    from players import ratings

    rng = random.Random(seed)
    users = [User.objects.create_user(f"bench{i:03d}") for i in range(n_players)]
    strength = {u.pk: rng.gauss(0, 1) for u in users}
    start = timezone.now() - timedelta(days=30)
    terminations = ["flag_captured", "resignation", "no_moves", "time", "forfeit"]
    for i in range(n_games):
        red, blue = rng.sample(users, 2)
        edge = strength[red.pk] - strength[blue.pk]
        roll = rng.random()
        winner = None if roll < 0.05 else (0 if roll < 0.05 + 0.95 / (1 + 10 ** (-edge)) else 1)
        with transaction.atomic():
            game = Game.objects.create(
                variant=rng.choice(["classic", "mini"]),
                status=Game.Status.FINISHED,
                rated=True,
                red_user=red,
                red_name=red.username,
                blue_user=blue,
                blue_name=blue.username,
                winner=winner,
                termination="agreed_draw" if winner is None else rng.choice(terminations),
                ply=rng.randint(20, 400),
                finished=start + timedelta(minutes=10 * i),
            )
            ratings.game_finished(game)
    return [u.username for u in users]


def measure(client, url: str, runs: int) -> tuple[float, float, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times = []
    for _ in range(runs):
        with CaptureQueriesContext(connection) as queries:
            began = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - began) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    return statistics.median(times), max(times), len(queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    setup_django()
    from django.db.models import Count
    from django.test import Client
    from django.test.utils import setup_databases, setup_test_environment, teardown_databases

    from players.models import Rating

    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    try:
        began = time.perf_counter()
        make_games(args.games, args.players)
        made = time.perf_counter() - began
        busiest = (
            Rating.objects.values("user__username").annotate(n=Count("changes")).order_by("-n")[0]
        )
        name = busiest["user__username"]
        print(
            f"{args.games} rated games, {args.players} players: written and rated in {made:.1f} s"
        )
        client = Client()
        for label, url in (
            ("leaderboard (classic)", "/players/?variant=classic"),
            (f"profile of {name}", f"/players/{name}/"),
        ):
            median, worst, queries = measure(client, url, args.runs)
            print(f"{label:28} median {median:6.1f} ms  max {worst:6.1f} ms  {queries} queries")
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
