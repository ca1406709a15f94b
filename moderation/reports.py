"""Players report a chat message (from the game page) or a player (from a profile).

POST /games/<id>/report/  JSON {"version": <the message's>, "reason": ..., "details": ...}
                          -> 201 {"report": id}; refusals 4xx {"error": code, "message": ...}
POST /players/<name>/report/  a form (reason, details) -> back to the profile with a message
Both are limited (games/services/rate_limits.py, report) and need a nickname or an account.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.domain.chat_message import ChatMessage
from games.domain.identity import Identity, identity_from
from games.domain.models import Game
from games.services.chat import author_key
from games.services.rate_limits import limited

from .models import MAX_DETAILS, REASONS, Report

REASON_CODES = {code for code, _ in REASONS}


class Refused(Exception):
    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


def reporter(request: HttpRequest) -> Identity:
    ident = identity_from(request.user, request.session)
    if ident is None:
        raise Refused("no_identity", _("Choose a nickname or log in first."), 403)
    return ident


def checked_reason(reason: object, details: object) -> tuple[str, str]:
    if reason not in REASON_CODES:
        raise Refused(
            "bad_reason",
            _("reason is one of %(reasons)s.") % {"reasons": ", ".join(sorted(REASON_CODES))},
        )
    text = details if isinstance(details, str) else ""
    text = "".join(ch for ch in text if ch.isprintable()).strip()
    if len(text) > MAX_DETAILS:
        raise Refused(
            "bad_details", _("details have at most %(most)s characters.") % {"most": MAX_DETAILS}
        )
    return str(reason), text


def new_report(ident: Identity, **fields: object) -> Report:
    return Report.objects.create(
        reporter_user_id=ident.user_id,
        reporter_session=ident.session_key or "",
        reporter_name=ident.name,
        **fields,
    )


def report_message(request: HttpRequest, game_id: str) -> Report:
    ident = reporter(request)
    try:
        body = json.loads(request.body or b"{}")
    except (ValueError, RecursionError):
        raise Refused("bad_json", _("The request body is not JSON.")) from None
    if not isinstance(body, dict):
        raise Refused("bad_json", _("The request body must be a JSON object."))
    version = body.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or not 0 < version < 2**31:
        raise Refused("bad_field", _("version is the chat message's number."))
    reason, details = checked_reason(body.get("reason"), body.get("details"))
    game = Game.objects.filter(public_id=game_id).first()
    message = ChatMessage.objects.filter(game=game, version=version).first() if game else None
    if message is None:
        raise Refused("not_found", _("There is no such chat message."), 404)
    if message.author_key == author_key(ident):
        raise Refused("own_message", _("That is your own message."))
    account = message.author_key.startswith("u")
    return new_report(
        ident,
        target_user_id=int(message.author_key[1:]) if account else None,
        target_session="" if account else message.author_key[1:],
        target_name=message.author,
        game=game,
        message=message,
        reason=reason,
        details=details,
    )


@require_POST
@limited("report", json=True)
def message_view(request: HttpRequest, game_id: str) -> JsonResponse:
    try:
        report = report_message(request, game_id)
    except Refused as exc:
        return JsonResponse({"error": exc.code, "message": exc.message}, status=exc.status)
    return JsonResponse({"report": report.pk}, status=201)


@require_POST
@limited("report")
def player_view(request: HttpRequest, name: str) -> HttpResponse:
    target = get_object_or_404(get_user_model(), username=name)
    try:
        ident = reporter(request)
        if ident.user_id == target.pk:
            raise Refused("own_profile", _("You cannot report yourself."))
        reason, details = checked_reason(request.POST.get("reason"), request.POST.get("details"))
    except Refused as exc:
        messages.error(request, exc.message)
    else:
        new_report(
            ident, target_user=target, target_name=target.get_username(), reason=reason,
            details=details,
        )  # fmt: skip
        messages.success(request, _("Thank you: a moderator will look at your report."))
    return redirect("players:profile", name=name)
