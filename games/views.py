"""HTTP views of games: thin wrappers around the services."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from moderation.models import REASONS
from players.ratings import checked_range

from . import engine, services
from .domain import options
from .domain.errors import ServiceError
from .domain.identity import Identity, identity_from, role_of
from .domain.models import BLUE, OBSERVER, RED, Game
from .services import chat, computer
from .services.rate_limits import limited
from .services.snapshots import game_meta


def request_identity(request: HttpRequest) -> Identity | None:
    return identity_from(request.user, request.session)


def parse_seat(value: str | None) -> int | None:
    return {"0": 0, "1": 1}.get((value or "").strip())


@require_POST
@limited("create_game")
def new_game(request: HttpRequest) -> HttpResponse:
    """The lobby's "New game" form: variant, seat, private, time_control, two_squares, army."""
    seat_field = request.POST.get("seat", "0")
    seat = None if seat_field == "random" else parse_seat(seat_field)
    variant = request.POST.get("variant", "classic")
    try:
        game = services.create_game(
            request_identity(request),
            variant=variant,
            seat=seat,
            private=request.POST.get("private") in ("on", "1", "true"),
            time_control=request.POST.get("time_control", ""),
            rules=options.form_rules(
                variant, request.POST.get("two_squares"), request.POST.get("army")
            ),
            rated=request.POST.get("rated") in ("on", "1", "true"),
            rating_range=checked_range(
                request.POST.get("rating_min"), request.POST.get("rating_max")
            ),
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("lobby:index")
    return redirect("games:detail", game_id=game.public_id)


@require_POST
@limited("join_game")
def join(request: HttpRequest, game_id: str) -> HttpResponse:
    try:
        services.join_game(game_id, request_identity(request), parse_seat(request.POST.get("seat")))
    except ServiceError as exc:
        if exc.code == "not_found":
            raise Http404("no such game") from exc
        messages.error(request, exc.message)
    return redirect("games:detail", game_id=game_id)


def muted_notice(ident: Identity | None) -> str:
    """What the chat says to a player a moderator muted ("" when not muted)."""
    from moderation.sanctions import Kind, mute_message, running  # moderation imports games

    mute = running(ident, Kind.MUTE)
    return mute_message(mute) if mute is not None else ""


@require_GET
def detail(request: HttpRequest, game_id: str) -> HttpResponse:
    ident = request_identity(request)
    try:
        game, role = services.watch(game_id, ident)
    except ServiceError as exc:
        raise Http404("no such game") from exc
    meta = game_meta(game)
    control = options.stored_time_control(game.clock_base_ms, game.clock_increment_ms)
    context = {
        "game": game,
        "game_meta": meta,
        "options_text": options.summary(game.variant, control, meta["rules"]),
        "role": role,
        "is_player": role != OBSERVER,
        "free_seats": [c for c in (0, 1) if not game.seat_taken(c)],
        "can_join": role == OBSERVER and game.is_active and ident is not None,
        "ws_path": f"/ws/games/{game.public_id}/",
        "muted_notice": muted_notice(ident),
        "report_reasons": REASONS,
    }
    return render(request, "games/game.html", context)


def chat_history(request: HttpRequest, game_id: str) -> JsonResponse:
    """GET /games/<id>/chat.json: the chat the caller may read now (docs/protocol.md)."""
    game = Game.objects.filter(public_id=game_id).first()
    if game is None:
        return JsonResponse({"error": "not_found"}, status=404)
    ident = identity_from(getattr(request, "user", None), getattr(request, "session", None))
    role = role_of(game, ident)
    messages_ = chat.visible_to(game, role)
    return JsonResponse({"role": role, "version": game.version, "messages": messages_})


# ---------------------------------------------------------------- computer games (lobby forms)


@require_POST
@limited("create_game")
def new_vs_computer(request: HttpRequest) -> HttpResponse:
    """The lobby's "Play vs computer" form: variant, level, seat and time_control."""
    seat_field = request.POST.get("seat", "0")
    seat = {"0": RED, "1": BLUE}.get(seat_field)
    try:
        game = computer.play_vs_computer(
            identity_from(request.user, request.session),
            request.POST.get("variant", "classic"),
            request.POST.get("level", "medium"),
            seat,
            request.POST.get("time_control", ""),
            rated=request.POST.get("rated") in ("on", "1", "true"),
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("lobby:index")
    return redirect("games:detail", game_id=game.public_id)


@require_POST
@limited("create_game")
def new_computer_game(request: HttpRequest) -> HttpResponse:
    """The lobby's "Watch computers play" form: a live computer game, opened as a spectator."""
    try:
        game = computer.open_or_start_computer_game(
            request.POST.get("variant", "classic"),
            request.POST.get("red_level", "hard"),
            request.POST.get("blue_level", "medium"),
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("lobby:index")
    return redirect("games:detail", game_id=game.public_id)


def terminations(request: HttpRequest) -> JsonResponse:
    """GET /games/terminations.json: how each way a game ends reads (games/engine/results.py),
    so that every page and client words it alike."""
    return JsonResponse(dict(engine.TERMINATION_LABELS))
