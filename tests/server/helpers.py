"""Games in a given state, made through the services; threads started at once; waiting."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from django.db import connection

from games import services
from games.domain.identity import Identity

from .conftest import BLUE_SETUP, RED_SETUP, make_guest, place_all


def seated_game(variant: str = "mini") -> tuple[str, Identity, Identity]:
    red, blue = make_guest("red"), make_guest("blue")
    game = services.create_game(red, variant=variant, seat=0)
    services.join_game(game.public_id, blue)
    return game.public_id, red, blue


def set_up_game(ready: bool = True) -> tuple[str, Identity, Identity]:
    """A mini game with the SHORT_GAME setups placed (and both ready)."""
    gid, red, blue = seated_game()
    place_all(services.place_piece, gid, red, RED_SETUP)
    place_all(services.place_piece, gid, blue, BLUE_SETUP)
    if ready:
        services.ready(gid, red)
        services.ready(gid, blue)
    return gid, red, blue


def race(*calls: Callable) -> list:
    """Run the calls in threads released at the same instant: what each returned or raised."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i: int, call: Callable) -> None:
        try:
            barrier.wait()
            results[i] = call()
        except Exception as exc:
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def wait_until(condition: Callable[[], object], timeout: float = 60.0) -> bool:
    """Poll `condition` until it holds or `timeout` seconds pass (only a failure waits long)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return bool(condition())
