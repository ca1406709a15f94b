"""Read side: what one role may see of a game, and the lobby's lists."""

from __future__ import annotations

from typing import NamedTuple

import orjson
from django.db.models import Count, F

from players.ratings import seat_labels

from .. import engine
from ..domain import clocks, options, presence
from ..domain.identity import Identity, role_of, seat_token
from ..domain.models import BLUE, OBSERVER, RED, Game, GameEvent
from .repository import LIVE_COUNTS

MAX_CATCH_UP = 50
SEATING = ("seated", "renamed")  # the events that give a seat to an identity
LOBBY_LIMIT = 20


def iso(value) -> str | None:
    return value.isoformat() if value else None


def seat_meta(game: Game, color: int) -> dict | None:
    if not game.seat_taken(color):
        return None
    meta = {"name": game.seat_name(color), "guest": game.seat_is_guest(color)}
    if game.seat_computer(color):
        meta["computer"] = True  # the server's own player: no profile
        meta["level"] = game.seat_computer(color)  # (its name in the reader's language)
    elif seat_is_bot(game, color):
        meta["bot"] = True  # a bot account's program (botapi): the lobby marks it BOT
    return meta


def seat_is_bot(game: Game, color: int) -> bool:
    if game.red_user_id is None if color == RED else game.blue_user_id is None:
        return False  # (no query: guests and the computer are never bots)
    user = game.red_user if color == RED else game.blue_user
    return user is not None and hasattr(user, "bot_account")


def spectator_count(game: Game) -> int:
    return presence.observers(game.pk)


def socket_counts(game: Game) -> dict[int, int]:
    """As presence.counts (roles with a live socket only), from the annotations when the
    game was read with them."""
    if not all(hasattr(game, name) for name in LIVE_COUNTS.values()):
        return presence.counts(game.pk)
    counts = {role: getattr(game, name) for role, name in LIVE_COUNTS.items()}
    return {role: n for role, n in counts.items() if n}


def time_control(game: Game) -> dict | None:
    control = options.stored_time_control(game.clock_base_ms, game.clock_increment_ms)
    return None if control is None else control.to_dict()


def rule_overrides(game: Game) -> dict:
    """The game's rule settings that differ from its variant's (saved in the engine state);
    read alone by the database where the lists annotate them (`lobby_lists`)."""
    if hasattr(game, "state_rules"):
        return dict(game.state_rules or {})
    return dict(game.state.get("rules") or {})


def game_meta(game: Game) -> dict:
    """The `game` object of the frames (docs/protocol.md), as of now."""
    result = None
    if game.termination:
        result = {"winner": game.winner, "termination": game.termination}
    sockets = socket_counts(game)
    at = clocks.now()
    return {
        "id": game.public_id,
        "variant": game.variant,
        "status": game.status,
        "private": game.private,
        "seats": [seat_meta(game, RED), seat_meta(game, BLUE)],
        "ply": game.ply,
        "result": result,
        "spectators": sockets.get(OBSERVER, 0),
        "draw_offer": game.draw_offer,
        "created": iso(game.created),
        "started": iso(game.started),
        "finished": iso(game.finished),
        "time_control": time_control(game),
        "rules": rule_overrides(game),
        "away": [clocks.away(game, color, set(sockets), at) for color in (RED, BLUE)],
    }


def engine_view(game: Game, role: int, eg: engine.Game | None = None) -> dict:
    """`role`'s view of the game's saved state (`eg`: that state, already parsed)."""
    return (eg or engine.Game.from_dict(game.state)).view(role).to_dict()


def load_game(public_id: str) -> Game | None:
    return Game.objects.filter(public_id=public_id).first()


def state_frame(game: Game, role: int) -> dict:
    return {
        "type": "state",
        "version": game.version,
        "role": role,
        "game": game_meta(game),
        "view": engine_view(game, role),
        "clock": clocks.snapshot(game, clocks.now()),
    }


class CatchUp(NamedTuple):
    role: int  # the socket's role now
    version: int  # the game's version now
    frames: list[dict]  # what brings the client there
    deadline_in: float | None  # seconds until the game's clock (or setup time) runs out


def catch_up(public_id: str, ident: Identity | None, since: int) -> CatchUp:
    """The role and version now, the frames that bring a client at `since` there, and when
    the game's deadline falls (for the socket's check).

    At most MAX_CATCH_UP events, the last one carrying the role's view and the game; more
    than that (or a version the server never had) gives one fresh state frame instead. Every
    frame carries the clock as of now.
    """
    game = load_game(public_id)
    if game is None:
        return CatchUp(OBSERVER, since, [], None)
    role = role_of(game, ident)
    deadline_in = clocks.seconds_left(game, clocks.now())
    return CatchUp(role, game.version, frames_since(game, role, since), deadline_in)


def frames_since(game: Game, role: int, since: int) -> list[dict]:
    missed = game.version - since
    if since == game.version:
        return []
    if missed < 0 or since < 0 or missed > MAX_CATCH_UP:
        return [state_frame(game, role)]
    events = list(GameEvent.objects.filter(game=game, version__gt=since).order_by("version"))
    if len(events) != missed:
        return [state_frame(game, role)]
    return event_frames(game, role, events, game_meta(game))


def event_frames(
    game: Game, role: int, events: list[GameEvent], meta: dict, eg: engine.Game | None = None
) -> list[dict]:
    """The frames of `events` (in order, the game's last ones) for `role`: the last one
    carries the role's view and the game (`meta`, the same for every role); `eg` is the
    game's state parsed, when the caller has it."""
    clock = clocks.snapshot(game, clocks.now())
    frames = [
        {"type": "event", "version": ev.version, "event": ev.payload_for(role), "clock": clock}
        for ev in events
    ]
    frames[-1]["view"] = engine_view(game, role, eg)
    frames[-1]["game"] = meta
    return frames


def pushed_frames(
    game: Game, events: list[GameEvent], eg: engine.Game | None = None
) -> dict[int, dict]:
    """The channel-layer message of each audience (RED, BLUE, OBSERVER) for `events`, the
    ones a transaction just wrote: each audience's frames, serialized once for all its
    sockets. `first`/`last` let a socket spot a gap; `deadline_in` is as in catch_up;
    `seated` holds the identity tokens of the seats these events filled (or handed to an
    account), so that a socket of that identity (another tab, still an observer's) reads its
    new role."""
    meta = game_meta(game)
    deadline_in = clocks.seconds_left(game, clocks.now())
    seated = [seat_token(game, ev.red_payload["seat"]) for ev in events if ev.kind in SEATING]
    to_move = RED if game.ply % 2 == 0 else BLUE
    eg = eg or engine.Game.from_dict(game.state)  # (once for the three views)
    # (in this order: the side to move first, its frames leave and arrive first)
    return {
        role: {
            "type": "game.frames",
            "audience": role,
            "first": events[0].version,
            "last": events[-1].version,
            "frames": [dumps(f) for f in event_frames(game, role, events, meta, eg)],
            "deadline_in": deadline_in,
            "seated": seated,
        }
        for role in (to_move, 1 - to_move, OBSERVER)
    }


def dumps(frame: dict) -> str:
    """A frame as sockets send it: compact JSON, by orjson (about ten times json's speed on a
    classic board's view: docs/performance.md, "Figures behind the code"). Unlike json's default it
    writes
    non-ASCII characters as UTF-8, not as escapes; keys that are not strings become strings,
    as json does."""
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


def lobby_entry(game: Game) -> dict:
    return {
        "id": game.public_id,
        "variant": game.variant,
        "status": game.status,
        "seats": [seat_meta(game, RED), seat_meta(game, BLUE)],
        "spectators": getattr(game, "n_spectators", 0),
        "ply": game.ply,
        "result": (
            {"winner": game.winner, "termination": game.termination} if game.termination else None
        ),
        "created": iso(game.created),
        "time_control": time_control(game),
        "rules": rule_overrides(game),
        # Ratings (players/ratings.py): public numbers, no piece in them.
        "rated": game.rated,
        "rating_range": [game.rating_min, game.rating_max],
        "ratings": seat_labels(game),
    }


def lobby_lists() -> dict:
    # The engine state (the whole board and history) stays in the database: decoding it was
    # most of the lists' time. Only its rule settings are read.
    public = (
        Game.objects.filter(private=False)
        .defer("state")
        .annotate(
            n_spectators=Count("presences", filter=presence.observers_filter()),
            state_rules=F("state__rules"),
        )
    )
    public = public.select_related("red_user__bot_account", "blue_user__bot_account")  # BOT
    waiting = public.filter(status=Game.Status.WAITING).order_by("-created")[:LOBBY_LIMIT]
    live = public.filter(status__in=[Game.Status.SETUP, Game.Status.PLAYING]).order_by("-created")
    finished = public.filter(status__in=[Game.Status.FINISHED, Game.Status.ABORTED]).order_by(
        "-finished"
    )
    return {
        "type": "lobby",
        "waiting": [lobby_entry(g) for g in waiting],
        "live": [lobby_entry(g) for g in live[:LOBBY_LIMIT]],
        "finished": [lobby_entry(g) for g in finished[:LOBBY_LIMIT]],
    }
