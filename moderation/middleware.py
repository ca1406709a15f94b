"""What a moderator decided, said on the pages: a person banned from the site gets a page
that says so, whatever they ask for (their sessions ended when the ban was made; this
catches a login or a guest session since), and a warning not yet shown is shown once, at
the top of the next page (one query per page of a signed-on visitor)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.domain.identity import identity_from

from .sanctions import Kind, ban_message, for_a_page, running, warning_message

OPEN_PATHS = ("/static/", "/admin/")  # (the admin asks for a moderator's login)
JSON_SUFFIXES = (".json", ".xml")  # (a warning waits for a page a person reads)


class SiteBanMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith(OPEN_PATHS):
            return self.get_response(request)
        ident = identity_from(getattr(request, "user", None), request.session)
        if ident is None:
            return self.get_response(request)
        if request.path.endswith(JSON_SUFFIXES):
            ban, warnings = running(ident, Kind.SITE_BAN), []
        else:
            ban, warnings = for_a_page(ident)
        if ban is not None:
            logout(request)  # (flushes the session: a guest's nickname goes too)
            context = {"message": ban_message(ban)}
            return render(request, "moderation/banned.html", context, status=403)
        for warning in warnings:
            messages.warning(request, warning_message(warning))
        return self.get_response(request)
