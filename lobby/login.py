"""Logging in, with failed attempts limited per address and username (and per address):
a guesser is slowed down, and the owner is never locked out for longer than one window
(games/services/rate_limits.py, login_failure), nor at all from another address."""

from __future__ import annotations

import logging

from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse

from games.services import rate_limits as http_limits
from players.names import name_key

logger = logging.getLogger(__name__)


def failure_keys(request: HttpRequest) -> list[tuple[str, str]]:
    address = http_limits.address_of(request)
    username = name_key(str(request.POST.get("username", ""))[:150])
    return [("login_failure", f"{address}:{username}"), ("login_failure_address", address)]


def over_limit(request: HttpRequest) -> http_limits.Limited | None:
    """The refusal if this address (for this name) failed too often in this window. With the
    cache away, none (a limit never stops the site)."""
    try:
        for name, who in failure_keys(request):
            if http_limits.peek(name, who) >= http_limits.rule(name).count:
                http_limits.count(name, who)  # over already: raises Limited with its wait
    except http_limits.Limited as exc:
        return exc
    except Exception as exc:
        logger.warning("login limits not checked: %r", exc)
    return None


class LoginView(auth_views.LoginView):
    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        refused = over_limit(request)
        if refused is not None:
            return http_limits.refusal(request, refused)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form) -> HttpResponse:  # (an AuthenticationForm)
        for name, who in failure_keys(self.request):
            try:
                http_limits.count(name, who)
            except http_limits.Limited:
                pass  # refused from the next attempt on; this one is answered as it is
            except Exception as exc:  # the cache is away
                logger.warning("login failure not counted: %r", exc)
        return super().form_invalid(form)

    def form_valid(self, form) -> HttpResponse:
        try:
            http_limits.forget(*failure_keys(self.request)[0])  # the owner starts afresh
        except Exception as exc:  # the cache is away
            logger.warning("login failures not forgotten: %r", exc)
        return super().form_valid(form)
