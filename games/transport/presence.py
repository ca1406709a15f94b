"""Who is connected to a game, so that spectators can be counted across processes.

Stale rows. A socket's row is deleted by its consumer's disconnect(), which never runs when
the process dies (a crash, kill -9, a host going away). So:

- each server process has an INSTANCE id, written on the rows of its sockets, and knows in
  memory which sockets it holds (`_held`, kept by enter and leave);
- the heartbeat of each process (`beat`, run by stratego_site/scheduler.py) writes the
  rows of the sockets it holds every HEARTBEAT_SECONDS (one upsert: re-stamped, or put back
  if they were purged), and deletes every row, whoever wrote it, not seen for TTL_SECONDS
  (three heartbeats): a live process would have re-stamped it;
- counts only take rows seen within TTL_SECONDS, so they are right even before the purge.

A dead process's sockets therefore stop counting at most TTL_SECONDS after it died, with any
number of processes and no registry of them (only their clocks should agree within seconds).

Per socket, not only per process: a game socket's consumer registers its asyncio task
(`watch`), and a beat re-stamps only the sockets whose consumer is still running. A consumer
that ended without its leave (its task is done, whatever ended it) is dropped by the next
beat: its row goes and the others learn it, as on a leave. (A socket whose peer vanished is
closed by daphne's websocket ping, which ends its consumer.) Sockets registered without a
task (the TCP door's sessions) count while their process beats.
The purge also announces the corrected counts. A process that stalls (or loses the database) for
longer than the TTL has
the rows of its live sockets purged by the others, and its players marked gone; its next beat
puts the rows back, and a seat it holds a socket of is present again (the `present` event).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from datetime import datetime, timedelta
from typing import NamedTuple

from django.utils import timezone

from ..domain.identity import Identity, role_of
from ..domain.models import OBSERVER, Game, Presence, left_field
from ..domain.presence import (
    HEARTBEAT_SECONDS,
    PLAYERS,
    TTL_SECONDS,
    counts,
    cutoff,
    live,
    observers,
    observers_filter,
    players_connected,
)
from ..services import absence
from .broadcast import LOBBY_GROUP, game_group, send_coalesced

logger = logging.getLogger(__name__)

INSTANCE = uuid.uuid4().hex  # this process
# (the reads of the rows, re-exported for the sockets' side)
__all__ = [
    "HEARTBEAT_SECONDS",
    "TTL_SECONDS",
    "counts",
    "cutoff",
    "live",
    "observers",
    "observers_filter",
    "players_connected",
]


class Held(NamedTuple):
    """A socket this process holds: its game and its role there."""

    game_id: int
    public_id: str
    role: int


_held: dict[str, Held] = {}  # channel name -> the socket, for every socket of this process
_tasks: dict[str, asyncio.Task] = {}  # channel name -> its consumer's task (see `watch`)
_held_lock = threading.Lock()
_following = True  # False once the process is shutting down (stratego_site/shutdown.py)


def arrive(public_id: str, channel_name: str, ident: Identity | None) -> int | None:
    """Register a new socket; its role, or None when the game does not exist."""
    game = Game.objects.filter(public_id=public_id).first()
    if game is None:
        return None
    role = role_of(game, ident)
    enter(public_id, channel_name, role)
    return role


def announce(game: Game) -> None:
    """The game's spectator count to its sockets (and a nudge to the lobby), coalesced: a
    crowd arriving is one count every few tenths of a second, not one per arrival."""
    game_id, public_id, private = game.pk, game.public_id, game.private

    def sends() -> list[tuple[str, dict]]:
        count = {"type": "game.spectators", "count": observers(game_id)}
        lobby = [] if private else [(LOBBY_GROUP, {"type": "lobby.nudge"})]
        return [(game_group(public_id), count), *lobby]

    send_coalesced(f"spectators.{public_id}", sends)


def announce_games(game_ids: set[int]) -> None:
    for game in Game.objects.filter(pk__in=game_ids).only("public_id", "private"):
        announce(game)


def enter(public_id: str, channel_name: str, role: int) -> None:
    game = Game.objects.filter(public_id=public_id).only("public_id", "private").first()
    if game is None:
        return
    with _held_lock:
        old = _held.get(channel_name)
        _held[channel_name] = Held(game.pk, public_id, role)
    Presence.objects.update_or_create(
        channel_name=channel_name,
        defaults={"game": game, "role": role, "instance": INSTANCE, "seen": timezone.now()},
    )
    if role == OBSERVER or (old is not None and old.role == OBSERVER):
        announce(game)
    if role in PLAYERS and marked_gone(game.pk, role):  # read after the row is in (see leave)
        absence.player_back(public_id, role)
    if old is not None and old.role in PLAYERS and old.role != role:
        absence.player_left(public_id, old.role)


def marked_gone(game_id: int, color: int) -> bool:
    left = Game.objects.filter(pk=game_id).values_list(left_field(color), flat=True).first()
    return left is not None


def leave(public_id: str, channel_name: str) -> None:
    """A socket closed: it is no longer held (first: a beat then never puts its row back),
    its row goes, and the others learn it. Not while the process shuts down: see
    stop_following."""
    if not _following:
        return
    with _held_lock:
        held = _held.pop(channel_name, None)
        _tasks.pop(channel_name, None)
    Presence.objects.filter(channel_name=channel_name).delete()
    if held is not None:
        gone(held)


def gone(socket: Held) -> None:
    if socket.role == OBSERVER:
        announce_games({socket.game_id})
    else:  # the service looks, under the game's lock, whether another socket of the seat is live
        absence.player_left(socket.public_id, socket.role)


def watch(channel_name: str, task: asyncio.Task) -> None:
    """The socket lives as long as `task` (its consumer's) runs: once the task is done the
    next beat drops the socket, if no leave did (from the event loop; no database)."""
    with _held_lock:
        _tasks[channel_name] = task


def ended_sockets() -> dict[str, Held]:
    """Take out of the held sockets those whose consumer's task is done."""
    with _held_lock:
        ended = [name for name, task in _tasks.items() if task.done()]
        for name in ended:
            del _tasks[name]
        return {name: _held.pop(name) for name in ended if name in _held}


def drop_ended() -> int:
    """Sockets whose consumer ended without leaving: their rows go and the others learn it.
    How many."""
    ended = ended_sockets()
    if ended:
        Presence.objects.filter(channel_name__in=ended).delete()
        logger.info("presence: %d socket(s) whose consumer ended without leaving", len(ended))
        for socket in ended.values():
            gone(socket)
    return len(ended)


def stop_following() -> None:
    """The process is shutting down: its sockets' leaves write and broadcast nothing (the
    event loop they would broadcast through is about to stop, stratego_site/shutdown.py), and the
    heartbeat stops. Their rows expire by the TTL, as a crashed process's do, and a player
    who reconnects to another process meanwhile is never shown as gone. (The scheduler,
    stratego_site/scheduler.py, stops beating.)"""
    global _following
    _following = False


def held_sockets() -> dict[str, Held]:
    with _held_lock:
        return dict(_held)


def forget_sockets() -> None:
    """For tests: this process holds no socket any more (their rows stay as they are)."""
    with _held_lock:
        _held.clear()
        _tasks.clear()


# ---------------------------------------------------------------- heartbeat
def beat() -> int:
    """One heartbeat: drop the sockets whose consumer ended without leaving, write the rows
    of the others (put back if another process purged them), purge the stale ones (of any
    process) and announce what that changed. The number of rows purged."""
    drop_ended()
    restamp()
    return purge_stale()


def restamp() -> None:
    """Upsert a row for every socket this process holds (in a game that still exists). A
    watched game whose row was missing gets its count announced again; a seat of a held
    socket that was marked gone (its rows purged while this process stalled) is present
    again."""
    held = held_sockets()
    if not held:
        return
    rows = Game.objects.filter(pk__in={s.game_id for s in held.values()})
    left = {pk: (red, blue) for pk, red, blue in rows.values_list("pk", "red_left", "blue_left")}
    held = {name: s for name, s in held.items() if s.game_id in left}
    missing = write_rows(held)
    drop_closed(held)
    announce_games({s.game_id for n, s in held.items() if s.role == OBSERVER and n in missing})
    seats = {(s.public_id, s.game_id, s.role) for s in held.values() if s.role in PLAYERS}
    for public_id, game_id, role in seats:
        if left[game_id][role] is not None:  # (the service checks the socket is live)
            absence.player_back(public_id, role)


def write_rows(held: dict[str, Held]) -> set[str]:
    """One upsert of the rows of `held`, seen now. The channels whose row was missing."""
    had = Presence.objects.filter(channel_name__in=held).values_list("channel_name", flat=True)
    missing = set(held) - set(had)
    now = timezone.now()
    rows = [
        Presence(channel_name=name, game_id=s.game_id, role=s.role, instance=INSTANCE, seen=now)
        for name, s in held.items()
    ]
    Presence.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["channel_name"],
        update_fields=["game", "role", "instance", "seen"],
    )
    return missing


def drop_closed(written: dict[str, Held]) -> None:
    """Sockets that closed while restamp wrote their rows: the rows go again (and the leave
    is told again; the service ignores it if it was already counted)."""
    still = held_sockets()
    closed = {name: s for name, s in written.items() if name not in still}
    if closed:
        Presence.objects.filter(channel_name__in=closed).delete()
        for socket in closed.values():
            gone(socket)


def purge_stale() -> int:
    """Delete the rows (of any process) not seen for TTL_SECONDS and announce the games whose
    counts that changed; a seat left with no live socket is gone since it was last seen (the
    latest of its rows). The number of rows purged."""
    now = timezone.now()
    stale = Presence.objects.filter(seen__lt=now - timedelta(seconds=TTL_SECONDS))
    rows = list(stale.values_list("pk", "game_id", "role", "seen"))
    if not rows:
        return 0
    Presence.objects.filter(pk__in=[pk for pk, _, _, _ in rows]).delete()
    logger.info("presence: purged %d socket(s) of stopped server processes", len(rows))
    announce_games({game_id for _, game_id, role, _ in rows if role == OBSERVER})
    seats = last_seen(rows)
    public_ids = dict(
        Game.objects.filter(pk__in={game_id for game_id, _ in seats}).values_list("pk", "public_id")
    )
    for (game_id, role), seen in seats.items():
        if game_id in public_ids:
            absence.player_left(public_ids[game_id], role, since=seen)
    return len(rows)


def last_seen(rows: list[tuple[int, int, int, datetime]]) -> dict[tuple[int, int], datetime]:
    """(game, seat) -> the latest `seen` of the seat's rows among `rows` (pk, game, role, seen)."""
    latest: dict[tuple[int, int], datetime] = {}
    for _, game_id, role, seen in rows:
        if role in PLAYERS:
            latest[game_id, role] = max(seen, latest.get((game_id, role), seen))
    return latest
