"""Tell an event's open pages that it changed, after the commit (the socket of
tournaments/consumers.py reads and sends the new standings), and wake the scheduler."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

from games import broadcast

# tournaments/scheduler.py registers its wake-up here (it imports this module).
waker: Callable[[], None] | None = None


def group(tournament_id: int) -> str:
    return f"tournament_{tournament_id}"


def changed_on_commit(tournament_id: int, wake: bool = False) -> None:
    def tell() -> None:
        broadcast.send([(group(tournament_id), {"type": "tournament.changed"})])
        if wake and waker is not None:
            waker()

    transaction.on_commit(tell)
