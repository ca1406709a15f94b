"""Rated games for the tests: accounts, games made through the services, threads released at
once, and time moved by writing timestamps into the past (never by sleeping)."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from datetime import timedelta

from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.db.models import F

from games import engine, services
from games.domain.identity import NICKNAME_KEY, Identity
from games.domain.models import Game

F_, B_, M_, S_ = engine.FLAG, engine.BOMB, engine.MARSHAL, engine.SPY
# The mini setups of tests/server/conftest.py: Red's marshal takes the flag in five plies.
RED_SETUP = {0: F_, 1: B_, 2: B_, 3: B_, 4: S_, 5: engine.MINER, 6: engine.CAPTAIN, 7: M_,
             8: engine.COLONEL, 9: engine.MAJOR}  # fmt: skip
BLUE_SETUP = {22: F_, 20: B_, 21: B_, 23: B_, 24: engine.MINER, 15: engine.CAPTAIN,
              16: engine.COLONEL, 17: S_, 18: engine.MAJOR, 19: M_}  # fmt: skip
SHORT_GAME = [(0, 7, 12), (1, 15, 10), (0, 12, 17), (1, 10, 15), (0, 17, 22)]
_numbers = itertools.count(1)


def account(name: str | None = None) -> Identity:
    user = User.objects.create_user(name or f"player{next(_numbers)}", password="pw-12345678")
    return Identity(user_id=user.pk, session_key=None, name=user.username)


def guest(name: str = "guest") -> Identity:
    session = SessionStore()
    session[NICKNAME_KEY] = name
    session.create()
    return Identity(user_id=None, session_key=session.session_key, name=name)


def seated(red: Identity, blue: Identity, rated: bool = True, time_control=None) -> str:
    game = services.create_game(red, variant="mini", seat=0, rated=rated, time_control=time_control)
    services.join_game(game.public_id, blue)
    return game.public_id


def playing(red: Identity, blue: Identity, rated: bool = True, time_control=None) -> str:
    gid = seated(red, blue, rated, time_control)
    services.submit_setup(gid, red, RED_SETUP)
    services.submit_setup(gid, blue, BLUE_SETUP)
    services.ready(gid, red)
    services.ready(gid, blue)
    return gid


def rewind(public_id: str, seconds: float) -> None:
    delta = timedelta(seconds=seconds)
    names = ("turn_started", "setup_started", "deadline", "red_left", "blue_left")
    Game.objects.filter(public_id=public_id).update(**{n: F(n) - delta for n in names})


def position(public_id: str, board: dict[int, tuple[int, int]], turn: int = 0) -> None:
    """Put a game in play into any position (as tests/engine/boards.py draws them)."""
    state = engine.Game.from_position("mini", board, turn).to_dict()
    Game.objects.filter(public_id=public_id).update(state=state)


def race(*calls: Callable) -> list:
    """Run the calls in threads released at the same instant: what each returned or raised."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i: int, call: Callable) -> None:
        try:
            barrier.wait()
            results[i] = call()
        except Exception as exc:  # the test looks at it
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results
