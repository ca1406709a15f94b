"""Tell an event's open pages that it changed, after the commit (the socket of
tournaments/consumers.py reads and sends the new standings), and wake the scheduler."""

from __future__ import annotations

import threading

from django.db import transaction

from games.transport import broadcast

# Set when the events' job of the scheduler should look again now (stratego_site/scheduler.py
# `EVENTS` waits on it between turns).
woken = threading.Event()


def group(tournament_id: int) -> str:
    return f"tournament_{tournament_id}"


def changed_on_commit(tournament_id: int, wake: bool = False) -> None:
    def tell() -> None:
        broadcast.send([(group(tournament_id), {"type": "tournament.changed"})])
        if wake:
            woken.set()

    transaction.on_commit(tell)
