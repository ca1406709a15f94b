"""The bot API over HTTP: a bot account opens a game (Lichess's "seek"), then plays it over
the game's websocket like anyone. Authenticated by `Authorization: Bearer <token>` alone: no
cookie, so no CSRF (docs/bots.md, "Opening games")."""

from __future__ import annotations

import json

from django.db.models import Q
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from games import services
from games.domain import options
from games.domain.errors import ServiceError
from games.domain.identity import Identity
from games.domain.models import Game

from .tokens import user_for_token

MAX_BODY_BYTES = 4096
MAX_WAITING_GAMES = 3  # open games one bot may wait in at once (a runaway loop stays small)
FIELDS = {"variant", "seat", "time_control", "two_squares", "army", "rated", "private"}


def refused(status: int, code: str, message: str) -> JsonResponse:
    response = JsonResponse({"error": code, "message": message}, status=status)
    if status == 401:
        response["WWW-Authenticate"] = "Bearer"
    return response


def token_user(request: HttpRequest):  # (a User or None)
    header = request.headers.get("Authorization", "").strip()
    if not header.lower().startswith("bearer "):
        return None
    return user_for_token(header[7:].strip())


def parse_options(body: bytes) -> dict:
    """The request's JSON object of game options, checked for shape (the services check
    the values); ValueError with the reason."""
    if len(body) > MAX_BODY_BYTES:
        raise ValueError(f"a body of at most {MAX_BODY_BYTES} bytes")
    data = json.loads(body or b"{}")
    if not isinstance(data, dict):
        raise ValueError("the body is a JSON object")
    unknown = set(data) - FIELDS
    if unknown:
        raise ValueError(f"unknown fields: {', '.join(sorted(unknown))}")
    for key in ("variant", "time_control", "two_squares", "army"):
        if not isinstance(data.get(key, ""), str | None):
            raise ValueError(f"{key} is a string")
    if not isinstance(data.get("seat", 0), int | None) or isinstance(data.get("seat"), bool):
        raise ValueError("seat is 0, 1 or null")
    for key in ("rated", "private"):
        if not isinstance(data.get(key, False), bool):
            raise ValueError(f"{key} is true or false")
    return data


def waiting_games(user_id: int) -> int:
    mine = Q(red_user_id=user_id) | Q(blue_user_id=user_id)
    return Game.objects.filter(mine, status=Game.Status.WAITING).count()


@csrf_exempt
@require_POST
def create_game(request: HttpRequest) -> JsonResponse:
    """`POST /api/bot/games/` {"variant": "mini", "time_control": "5+3", ...}: a new game with
    the bot in a seat, waiting for an opponent (a person or another bot)."""
    user = token_user(request)
    if user is None:
        return refused(401, "bad_token", "A bot account's API token is needed (Bearer).")
    try:
        data = parse_options(request.body)
    except ValueError as exc:  # (json.JSONDecodeError is a ValueError)
        return refused(400, "bad_request", str(exc))
    if waiting_games(user.pk) >= MAX_WAITING_GAMES:
        return refused(409, "too_many_waiting", "This bot already waits in 3 open games.")
    variant = data.get("variant") or "classic"
    try:
        services.check_variant(variant)
        game = services.create_game(
            Identity(user_id=user.pk, session_key=None, name=user.get_username()),
            variant=variant,
            seat=data.get("seat", 0),
            private=data.get("private", False),
            time_control=data.get("time_control") or "",
            rules=options.form_rules(variant, data.get("two_squares"), data.get("army")),
            rated=data.get("rated", False),
        )
    except ServiceError as exc:
        return refused(400, exc.code, exc.message)
    seat = 0 if game.red_user_id == user.pk else 1
    return JsonResponse({"id": game.public_id, "seat": seat, "variant": variant}, status=201)


@require_GET
def account(request: HttpRequest) -> JsonResponse:
    """`GET /api/bot/account/`: the bot's own name (a client skips its own games with it)."""
    user = token_user(request)
    if user is None:
        return refused(401, "bad_token", "A bot account's API token is needed (Bearer).")
    return JsonResponse({"name": user.get_username(), "bot": True})
