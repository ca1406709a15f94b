"""A person banned from the site gets a page that says so, whatever they ask for (their
session ended when the ban was made; this catches a login or a guest session since)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.identity import identity_from

from .sanctions import Kind, ban_message, running

OPEN_PATHS = ("/static/", "/admin/")  # (the admin asks for a moderator's login)


class SiteBanMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(OPEN_PATHS):
            ident = identity_from(getattr(request, "user", None), request.session)
            ban = running(ident, Kind.SITE_BAN) if ident is not None else None
            if ban is not None:
                logout(request)  # (flushes the session: a guest's nickname goes too)
                context = {"message": ban_message(ban)}
                return render(request, "moderation/banned.html", context, status=403)
        return self.get_response(request)
