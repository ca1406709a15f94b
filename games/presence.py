"""Who is connected to a game, so that spectators can be counted across processes.

Stale rows. A socket's row is deleted by its consumer's disconnect(), which never runs when
the process dies (a crash, kill -9, a host going away). So:

- each server process has an INSTANCE id, written on the rows of its sockets;
- a heartbeat thread in each process re-stamps `seen` on its own rows every
  HEARTBEAT_SECONDS (one UPDATE), and deletes every row, whoever wrote it, not seen for
  TTL_SECONDS (three heartbeats): a live process would have re-stamped it;
- counts only take rows seen within TTL_SECONDS, so they are right even before the purge.

A dead process's sockets therefore stop counting at most TTL_SECONDS after it died, with any
number of processes and no registry of them (only their clocks should agree within seconds).
The heartbeat starts with the process's first game socket; the purge then also announces the
corrected counts. A process that stalls for longer than the TTL loses the rows of its live
sockets; they count again when those sockets reconnect.
"""

from __future__ import annotations

import logging
import threading
import uuid
from datetime import datetime, timedelta
from types import ModuleType

from django.conf import settings
from django.db import connections
from django.db.models import BooleanField, Count, Exists, ExpressionWrapper, OuterRef, Q
from django.utils import timezone

from . import options
from .broadcast import LOBBY_GROUP, game_group, send_now
from .identity import Identity, role_of
from .models import BLUE, OBSERVER, RED, Game, Presence, left_field

logger = logging.getLogger(__name__)

INSTANCE = uuid.uuid4().hex  # this process
HEARTBEAT_SECONDS: float = settings.PRESENCE_HEARTBEAT_SECONDS
TTL_SECONDS: float = settings.PRESENCE_TTL_SECONDS

PLAYERS = (RED, BLUE)

_heartbeat: threading.Thread | None = None
_stop = threading.Event()
_start_lock = threading.Lock()


def cutoff():  # noqa: ANN201 - a datetime
    """Rows last seen before this belong to a process that stopped beating."""
    return timezone.now() - timedelta(seconds=TTL_SECONDS)


def live() -> Q:
    """The filter for rows that count (as a lookup from Game: `presences__` + this)."""
    return Q(seen__gte=cutoff())


def observers_filter() -> Q:
    """For Count("presences", filter=...): the live observers of a game."""
    return Q(presences__role=OBSERVER, presences__seen__gte=cutoff())


def arrive(public_id: str, channel_name: str, ident: Identity | None) -> int | None:
    """Register a new socket; its role, or None when the game does not exist."""
    game = Game.objects.filter(public_id=public_id).first()
    if game is None:
        return None
    role = role_of(game, ident)
    enter(public_id, channel_name, role)
    return role


def observers(game_id: int) -> int:
    return Presence.objects.filter(live(), game_id=game_id, role=OBSERVER).count()


def counts(game_id: int) -> dict[int, int]:
    """Live sockets of a game by role (0 Red, 1 Blue, 2 observers), in one query."""
    rows = Presence.objects.filter(live(), game_id=game_id).values("role")
    return dict(rows.annotate(n=Count("pk")).values_list("role", "n"))


def players_connected(game_id: int) -> set[int]:
    """The seats (0, 1) with at least one live socket."""
    roles = Presence.objects.filter(live(), game_id=game_id, role__in=PLAYERS)
    return set(roles.values_list("role", flat=True).distinct())


def announce(game: Game) -> None:
    send_now(game_group(game.public_id), {"type": "game.spectators", "count": observers(game.pk)})
    if not game.private:
        send_now(LOBBY_GROUP, {"type": "lobby.nudge"})


def enter(public_id: str, channel_name: str, role: int) -> None:
    game = Game.objects.filter(public_id=public_id).first()
    if game is None:
        return
    start_heartbeat()
    old = Presence.objects.filter(channel_name=channel_name).first()
    Presence.objects.update_or_create(
        channel_name=channel_name,
        defaults={"game": game, "role": role, "instance": INSTANCE, "seen": timezone.now()},
    )
    if role == OBSERVER or (old is not None and old.role == OBSERVER):
        announce(game)
    if role in PLAYERS and marked_gone(game.pk, role):  # read after the row is in (see leave)
        services().player_back(public_id, role)
    if old is not None and old.role in PLAYERS and old.role != role:
        services().player_left(public_id, old.role)


def marked_gone(game_id: int, color: int) -> bool:
    left = Game.objects.filter(pk=game_id).values_list(left_field(color), flat=True).first()
    return left is not None


def leave(public_id: str, channel_name: str) -> None:
    row = Presence.objects.filter(channel_name=channel_name).select_related("game").first()
    if row is None:
        return
    row.delete()
    if row.role == OBSERVER:
        announce(row.game)
    else:  # the service looks, under the game's lock, whether another socket of the seat is live
        services().player_left(row.game.public_id, row.role)


def services() -> ModuleType:
    """games.services, which imports this module (so it is imported when first needed)."""
    from . import services as module

    return module


# ---------------------------------------------------------------- heartbeat
def beat() -> int:
    """One heartbeat: re-stamp this process's rows, purge the stale ones (of any process) and
    announce the games whose spectator count that changed. The number of rows purged."""
    now = timezone.now()
    Presence.objects.filter(instance=INSTANCE).update(seen=now)
    stale = Presence.objects.filter(seen__lt=now - timedelta(seconds=TTL_SECONDS))
    rows = list(stale.values_list("pk", "game_id", "role", "seen"))
    if not rows:
        return 0
    Presence.objects.filter(pk__in=[pk for pk, _, _, _ in rows]).delete()
    logger.info("presence: purged %d socket(s) of stopped server processes", len(rows))
    watched = {game_id for _, game_id, role, _ in rows if role == OBSERVER}
    for game in Game.objects.filter(pk__in=watched):
        announce(game)
    for game_id, role, seen in {(g, r, s) for _, g, r, s in rows if r in PLAYERS}:
        public_id = Game.objects.filter(pk=game_id).values_list("public_id", flat=True).first()
        if public_id is not None:
            services().player_left(public_id, role, since=seen)
    return len(rows)


def sweep() -> None:
    """What the heartbeat also looks after, for games nobody may be watching: games whose
    time ran out end, and a seat nobody ever connected to counts as gone once the game is
    ABANDON_SECONDS into its setup (or turn), so it can be claimed like one that left."""
    services().sweep_expired()
    for public_id, color, since in never_connected():
        services().player_left(public_id, color, since=since)


def never_connected() -> list[tuple[str, int, datetime]]:
    """(game, seat, since when) of human seats with no live socket that never left (so were
    never connected) in games in setup or play for ABANDON_SECONDS or more."""
    return [
        (row["public_id"], color, row["turn_started"])
        for row in never_connected_rows()
        for color in PLAYERS
        if row[f"{left_field(color)}_unseen"]
    ]


def never_connected_rows():  # noqa: ANN201 - a ValuesQuerySet
    """The games of never_connected, in one query of a few columns: per seat whether it is a
    person's with no live socket that never left (a computer's seat never counts)."""
    from .computer import computer_seat_q  # games/computer.py imports the services, and us

    cut = timezone.now() - timedelta(seconds=options.ABANDON_SECONDS)
    unseen = {
        f"{left_field(color)}_unseen": ExpressionWrapper(
            Q(**{left_field(color): None})
            & ~Exists(Presence.objects.filter(live(), game=OuterRef("pk"), role=color))
            & ~computer_seat_q(color),
            output_field=BooleanField(),
        )
        for color in PLAYERS
    }
    return (
        Game.objects.filter(
            status__in=[Game.Status.SETUP, Game.Status.PLAYING], turn_started__lte=cut
        )
        .annotate(**unseen)
        .filter(Q(red_left_unseen=True) | Q(blue_left_unseen=True))
        .values("public_id", "turn_started", *unseen)
    )


def start_heartbeat() -> None:
    """Start this process's heartbeat thread, once (it beats at once: a fresh process purges
    what a dead one left, as soon as that is older than the TTL)."""
    global _heartbeat
    with _start_lock:
        if _heartbeat is not None and _heartbeat.is_alive():
            return
        _stop.clear()
        _heartbeat = threading.Thread(target=_beat_forever, name="presence-heartbeat", daemon=True)
        _heartbeat.start()


def stop_heartbeat(timeout: float = 10.0) -> None:
    """For tests and shutdown: stop the thread and wait for it."""
    global _heartbeat
    with _start_lock:
        thread, _heartbeat = _heartbeat, None
        _stop.set()
    if thread is not None:
        thread.join(timeout)


def _beat_forever() -> None:
    while not _stop.is_set():
        try:
            beat()
            sweep()
        except Exception as exc:  # the database is away; the next beat tries again
            logger.warning("presence heartbeat failed: %r", exc)
        finally:
            connections.close_all()  # this thread's connections only
        _stop.wait(HEARTBEAT_SECONDS)
