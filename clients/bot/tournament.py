"""`python -m games.client --tournament ID`: enter an event (if not in it already) and play
every game it is paired in, one after the other, until the event is over. Pairings are read
from the Bot API every POLL_SECONDS; a server that is away for a while (a restart between
rounds) is waited for."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from .connection import ApiError, BotConnection
from .seat import PlayerSeat

logger = logging.getLogger(__name__)
POLL_SECONDS = 1.0
AWAY_SECONDS = 120.0  # how long the server may be unreachable before the client gives up
OVER = ("finished", "cancelled")


async def enter(connection: BotConnection, event: int, invite: str) -> None:
    try:
        await connection.enter_event(event, invite)
        print(f"entered event {event}", flush=True)
    except ApiError as exc:
        if exc.code != "already_entered":
            raise
        print(f"in event {event} already", flush=True)


async def pairings(connection: BotConnection, event: int) -> dict:
    """The bot's pairings, waiting for a server that is away (restarting)."""
    waited = 0.0
    while True:
        try:
            return await connection.pairings(event)
        except (OSError, ApiError) as exc:
            if isinstance(exc, ApiError) and exc.status < 500:
                raise
            if waited >= AWAY_SECONDS:
                raise
            logger.warning("event %s: the server is away (%r); trying again", event, exc)
            await asyncio.sleep(POLL_SECONDS)
            waited += POLL_SECONDS


async def play_event(connection: BotConnection, event: int, make_seat: Callable[[], PlayerSeat],
                     invite: str = "") -> list[dict | None]:  # fmt: skip
    await enter(connection, event, invite)
    played: set[str] = set()
    results: list[dict | None] = []
    while True:
        state = await pairings(connection, event)
        if not state["entered"] and state["status"] != "upcoming":
            print(f"event {event}: not in it (withdrawn or removed)", flush=True)
            break
        ready = [g for g in state["games"] if g["active"] and g["game"] not in played]
        for game in ready:
            played.add(game["game"])
            print(f"round {game['round']}: playing game {game['game']} against "
                  f"{game['opponent']}", flush=True)  # fmt: skip
            result = await connection.play(game["game"], make_seat())
            print(f"game {game['game']} over: {result}", flush=True)
            results.append(result)
        if not ready:
            if state["status"] in OVER:
                break
            await asyncio.sleep(POLL_SECONDS)
    print(f"event {event} {state['status']}: {len(results)} games played", flush=True)
    return results
