"""The Bot API for events (docs/bots.md, "Tournaments"): list them, enter or withdraw, and
read one's pairings; each game of a pairing is then played over the game's websocket like any
other. Authenticated by the bot's token (`Authorization: Bearer <token>`), no cookie."""

from __future__ import annotations

import json

from django.db.models import Q
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from botapi.views import refused, token_user

from . import entries, table
from .errors import TournamentError
from .models import Entrant, Tournament

STATUS_OF = {
    "account_needed": 401,
    "not_found": 404,
    "already_entered": 409,
    "already_started": 409,
    "event_over": 409,
    "full": 409,
    "not_entered": 409,
    "not_allowed": 403,
    "invitation_needed": 403,
    "banned": 403,
    "rated_banned": 403,
    "rated_needs_account": 403,
    "rating_out_of_range": 403,
}


def summary(t: Tournament) -> dict:
    return {
        "id": t.pk,
        "name": t.name,
        "format": t.format,
        "variant": t.variant,
        "time_control": t.time_control or "untimed",
        "rated": t.rated,
        "status": t.status,
        "starts_at": t.starts_at.isoformat(),
        "rounds": t.rounds,
        "minutes": t.minutes,
        "current_round": t.current_round,
        "rating_min": t.rating_min,
        "rating_max": t.rating_max,
        "entrants": t.entrants.filter(withdrawn=None, removed=False).count(),
    }


def error(exc: TournamentError) -> JsonResponse:
    return refused(STATUS_OF.get(exc.code, 400), exc.code, exc.message)


def found_or_404(pk: int) -> Tournament:
    tournament = Tournament.objects.filter(pk=pk).first()
    if tournament is None:
        raise TournamentError("not_found", _("There is no such event."))
    return tournament


@require_GET
def events(request: HttpRequest) -> JsonResponse:
    """`GET /api/bot/tournaments/`: public events upcoming and running."""
    shown = Tournament.objects.filter(
        private=False, status__in=[Tournament.Status.UPCOMING, Tournament.Status.RUNNING]
    ).order_by("starts_at")[:100]
    return JsonResponse({"events": [summary(t) for t in shown]})


@require_GET
def event(request: HttpRequest, pk: int) -> JsonResponse:
    """`GET /api/bot/tournaments/<id>/`: the event and its standings."""
    try:
        tournament = found_or_404(pk)
    except TournamentError as exc:
        return error(exc)
    rows = table.compute(tournament)
    standings = [
        {
            "place": r.standing.rank,
            "name": r.entrant.name,
            "points": r.standing.points,
            "active": r.entrant.active,
        }  # fmt: skip
        for r in rows
    ]
    return JsonResponse({**summary(tournament), "standings": standings})


def body_invite(request: HttpRequest) -> str:
    try:
        data = json.loads(request.body or b"{}")
    except ValueError:
        return ""
    invite = data.get("invite", "") if isinstance(data, dict) else ""
    return invite if isinstance(invite, str) else ""


@csrf_exempt
@require_POST
def enter(request: HttpRequest, pk: int) -> JsonResponse:
    """`POST /api/bot/tournaments/<id>/enter/` (optional body {"invite": code})."""
    user = token_user(request)
    if user is None:
        return refused(401, "bad_token", "A bot account's API token is needed (Bearer).")
    try:
        entrant = entries.enter(pk, user, body_invite(request))
    except TournamentError as exc:
        return error(exc)
    return JsonResponse({"entered": True, "event": pk, "name": entrant.name}, status=201)


@csrf_exempt
@require_POST
def withdraw(request: HttpRequest, pk: int) -> JsonResponse:
    user = token_user(request)
    if user is None:
        return refused(401, "bad_token", "A bot account's API token is needed (Bearer).")
    try:
        entries.withdraw(pk, user)
    except TournamentError as exc:
        return error(exc)
    return JsonResponse({"withdrawn": True, "event": pk})


@require_GET
def pairings(request: HttpRequest, pk: int) -> JsonResponse:
    """`GET /api/bot/tournaments/<id>/pairings/`: the bot's pairings, newest last; a game
    with "active" true is to be played now (its id is the game's, its seat the bot's)."""
    user = token_user(request)
    if user is None:
        return refused(401, "bad_token", "A bot account's API token is needed (Bearer).")
    try:
        tournament = found_or_404(pk)
    except TournamentError as exc:
        return error(exc)
    entrant = Entrant.objects.filter(tournament=tournament, user=user).first()
    games = []
    if entrant is not None:
        mine = tournament.pairings.filter(Q(red=entrant) | Q(blue=entrant)).select_related(
            "game", "red", "blue"
        )
        for p in mine.order_by("id"):
            seat = 0 if p.red_id == entrant.pk else 1
            other = p.blue if seat == 0 else p.red
            games.append({
                "round": p.round,
                "game": p.game.public_id if p.game_id else None,
                "seat": seat,
                "opponent": other.name if other else None,
                "active": bool(p.game_id and p.red_score is None and p.game.is_active),
                "score": p.red_score if seat == 0 else p.blue_score,
            })  # fmt: skip
    return JsonResponse({
        "event": pk,
        "status": tournament.status,
        "round": tournament.current_round,
        "entered": bool(entrant and entrant.active),
        "next_round_at": tournament.next_round_at.isoformat() if tournament.next_round_at else None,
        "games": games,
    })  # fmt: skip
