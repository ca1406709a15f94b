"""Run as a script on the embedded settings (SQLITE_PATH set, no DATABASE_URL): several games
at once on one SQLite file, people's moves from threads while computers play theirs, as
`make run` serves them. Prints a JSON summary: moves made, and every failure that was not a
refusal by the rules (a "database is locked" among them)."""

from __future__ import annotations

import json
import logging
import os
import random
import sys
import threading
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stratego_site.settings")
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connections  # noqa: E402

from games import engine, services  # noqa: E402
from games.domain.errors import ServiceError  # noqa: E402
from games.domain.models import Game  # noqa: E402
from games.services import computer  # noqa: E402
from tests.server.conftest import make_guest  # noqa: E402

HUMAN_GAMES, VS_COMPUTER, COMPUTER_GAMES = 3, 2, 2
# The play goes on until both counts are reached (a count, not a time: a loaded machine only
# takes longer); SECONDS is the ceiling after which it stops anyway, short of them.
PEOPLE_MOVES, COMPUTER_PLIES = 60, 20
SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 120.0
failures: list[str] = []
moves = {"people": 0}
count_lock = threading.Lock()


class FailureLog(logging.Handler):
    """A computer's failure is logged (and retried), not raised: count those too."""

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.WARNING:
            failures.append(record.getMessage())


def ready_random(gid: str, ident) -> None:
    services.random_setup(gid, ident)
    services.ready(gid, ident)


def play(gid: str, seats: dict[int, object], deadline: float) -> None:
    """Move for the people of `seats` whenever it is their turn, until the game ends."""
    rng = random.Random(gid)
    try:
        while time.monotonic() < deadline and moves["people"] < PEOPLE_MOVES:
            game = Game.objects.get(public_id=gid)
            if not game.is_active:
                return
            eg = engine.Game.from_dict(game.state)
            if game.status != Game.Status.PLAYING or eg.turn not in seats:
                time.sleep(0.005)
                continue
            src, dst = rng.choice(eg.view(eg.turn).legal_moves)
            try:
                services.move(gid, seats[eg.turn], src, dst)
                with count_lock:
                    moves["people"] += 1
            except ServiceError as exc:
                failures.append(f"refused: {exc.code}")
            except Exception as exc:
                failures.append(repr(exc))
    finally:
        connections.close_all()


def computer_plies(watched: list[str]) -> int:
    return sum(Game.objects.filter(public_id__in=watched).values_list("ply", flat=True))


def main() -> None:
    call_command("migrate", verbosity=0)
    logging.getLogger("games").addHandler(FailureLog())
    computer.settings["watch_delay"] = 0.0
    deadline = time.monotonic() + SECONDS
    threads, watched = [], []
    for _ in range(HUMAN_GAMES):
        red, blue = make_guest(), make_guest()
        game = services.create_game(red, variant="classic", seat=0)
        services.join_game(game.public_id, blue)
        ready_random(game.public_id, red)
        ready_random(game.public_id, blue)
        threads.append((game.public_id, {0: red, 1: blue}))
    for _ in range(VS_COMPUTER):
        person = make_guest()
        game = computer.play_vs_computer(person, "classic", "random", seat=0)
        ready_random(game.public_id, person)
        threads.append((game.public_id, {0: person}))
    for _ in range(COMPUTER_GAMES):
        watched.append(computer.watch_computers("classic", "random", "random").public_id)
    workers = [threading.Thread(target=play, args=(g, s, deadline)) for g, s in threads]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    while computer_plies(watched) < COMPUTER_PLIES and time.monotonic() < deadline:
        time.sleep(0.05)
    computer.settings["watch_delay"] = 1.0  # the computers' games pause; the rest is counted
    computer.wait_idle(30)
    plies = computer_plies(watched)
    total = sum(Game.objects.values_list("ply", flat=True))
    print(json.dumps({"people": moves["people"], "plies": total, "computer_plies": plies,
                      "failures": failures}))  # fmt: skip


if __name__ == "__main__":
    main()
