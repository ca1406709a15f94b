"""Read side: what one role may see of a game, and the lobby's lists."""

from __future__ import annotations

from django.db.models import Count

from . import engine, presence
from .identity import Identity, role_of
from .models import BLUE, OBSERVER, RED, Game, GameEvent

MAX_CATCH_UP = 50
LOBBY_LIMIT = 20


def iso(value) -> str | None:
    return value.isoformat() if value else None


def seat_meta(game: Game, color: int) -> dict | None:
    if not game.seat_taken(color):
        return None
    return {"name": game.seat_name(color), "guest": game.seat_is_guest(color)}


def spectator_count(game: Game) -> int:
    return presence.observers(game.pk)


def game_meta(game: Game, spectators: int | None = None) -> dict:
    result = None
    if game.termination:
        result = {"winner": game.winner, "termination": game.termination}
    return {
        "id": game.public_id,
        "variant": game.variant,
        "status": game.status,
        "private": game.private,
        "seats": [seat_meta(game, RED), seat_meta(game, BLUE)],
        "ply": game.ply,
        "result": result,
        "spectators": spectator_count(game) if spectators is None else spectators,
        "draw_offer": game.draw_offer,
        "created": iso(game.created),
        "started": iso(game.started),
        "finished": iso(game.finished),
    }


def engine_view(game: Game, role: int) -> dict:
    return engine.Game.from_dict(game.state).view(role).to_dict()


def load_game(public_id: str) -> Game | None:
    return Game.objects.filter(public_id=public_id).first()


def state_frame(game: Game, role: int) -> dict:
    return {
        "type": "state",
        "version": game.version,
        "role": role,
        "game": game_meta(game),
        "view": engine_view(game, role),
    }


def catch_up(public_id: str, ident: Identity | None, since: int) -> tuple[int, int, list[dict]]:
    """The role now, the version now, and the frames that bring a client at `since` there.

    At most MAX_CATCH_UP events, the last one carrying the role's view and the game; more
    than that (or a version the server never had) gives one fresh state frame instead.
    """
    game = load_game(public_id)
    if game is None:
        return OBSERVER, since, []
    role = role_of(game, ident)
    missed = game.version - since
    if since == game.version:
        return role, game.version, []
    if missed < 0 or since < 0 or missed > MAX_CATCH_UP:
        return role, game.version, [state_frame(game, role)]
    events = list(GameEvent.objects.filter(game=game, version__gt=since).order_by("version"))
    if len(events) != missed:
        return role, game.version, [state_frame(game, role)]
    frames = [
        {"type": "event", "version": ev.version, "event": ev.payload_for(role)} for ev in events
    ]
    frames[-1]["view"] = engine_view(game, role)
    frames[-1]["game"] = game_meta(game)
    return role, game.version, frames


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
    }


def lobby_lists() -> dict:
    public = Game.objects.filter(private=False).annotate(
        n_spectators=Count("presences", filter=presence.observers_filter())
    )
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
