"""Every limit on what one person, or one address, may do: the one list.

HTTP actions, counted in Django's cache (Redis when REDIS_URL is set, so all the server's
processes share the counts; the process's memory on the embedded default). Each is "at most
COUNT in any window of SECONDS", per person (an account, or a guest's browser session) and,
separately, per address (what the server sees as the client's address: the proxy's report
behind the trusted proxy). The window is fixed: the counts start again at its end, which is
what the refusal's Retry-After says.

    limit             default      setting (environment)       counted on
    sign_on           10 / 10 min  LIMIT_SIGN_ON                POST /nickname/
    sign_up           5 / hour     LIMIT_SIGN_UP                POST /accounts/signup/
    login_failure     5 / 15 min   LIMIT_LOGIN_FAILURE          a wrong password, per address
                                                                and username (then 50 / 15 min
                                                                per address, whatever the name)
    create_game       20 / 10 min  LIMIT_CREATE_GAME            POST /games/new/, /games/computer/*,
                                                                /players/play-now/
    join_game         40 / 10 min  LIMIT_JOIN_GAME              POST /games/<id>/join/
    chat              30 / min     LIMIT_CHAT                   a chat message, all games together
    save_setup        30 / hour    LIMIT_SAVE_SETUP             POST /games/setups/<variant>/
    report            10 / hour    LIMIT_REPORT                 a report of a message or a player
    waiting_games     3            LIMIT_WAITING_GAMES          games one person waits in at once

Elsewhere, already, and listed here so this stays the one list: the sockets' limits
(games/transport/limits.py: WS_SOCKETS_PER_SESSION 16, WS_SOCKETS_PER_ADDRESS 64,
WS_CONNECTS_PER_SECOND 2 with a burst of WS_CONNECT_BURST 30, and 20 frames a second with a
burst of 40 per socket in games/transport/guards.py), chat's 5 messages in 10 s per game
(games/services/chat.py), saved setups per variant (games/saved_setups.py) and the Bot
API's 3 waiting games per bot (botapi/views.py).

A setting is "COUNT/SECONDS" ("20/600"), or a COUNT for waiting_games. RATE_LIMIT_SCALE
multiplies every count (the test suite's servers run with 100; a load test may raise it).
"""

from __future__ import annotations

import functools
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

logger = logging.getLogger(__name__)

DEFAULTS: dict[str, str] = {
    "sign_on": "10/600",
    "sign_up": "5/3600",
    "login_failure": "5/900",
    "login_failure_address": "50/900",
    "create_game": "20/600",
    "join_game": "40/600",
    "chat": "30/60",
    "save_setup": "30/3600",
    "report": "10/3600",
    "waiting_games": "3",
}

WHAT = {  # what a refusal says was done too often
    "sign_on": "choosing a nickname",
    "sign_up": "signing up",
    "login_failure": "failed logins for this name",
    "login_failure_address": "failed logins",
    "create_game": "opening games",
    "join_game": "joining games",
    "chat": "chat messages",
    "save_setup": "saving setups",
    "report": "reports",
}

# Test runs start a new generation so that each test counts from zero, and may stop the clock
# (a window ending in the middle of a test would reset its counts).
generation = "1"
clock = time.time


@dataclass(frozen=True)
class Rule:
    count: int
    seconds: int


def rule(name: str) -> Rule:
    text = settings.RATE_LIMITS.get(name) or DEFAULTS[name]
    count, _, seconds = text.partition("/")
    scaled = max(1, math.floor(int(count) * settings.RATE_LIMIT_SCALE))
    return Rule(scaled, int(seconds or 0))


class Limited(Exception):
    """Over a limit: `retry_after` seconds until the window ends."""

    def __init__(self, name: str, retry_after: int) -> None:
        self.name = name
        self.retry_after = retry_after
        what = WHAT.get(name, name)
        super().__init__(f"Too many {what}: try again in {wait_text(retry_after)}.")
        self.message = str(self)


def wait_text(seconds: int) -> str:
    if seconds < 90:
        return f"{seconds} s"
    return f"{math.ceil(seconds / 60)} min"


def key(name: str, who: str, window: int) -> str:
    return f"limit:{generation}:{name}:{who}:{window}"


def count(name: str, who: str) -> None:
    """Count one more against `who` (a "person:..." or "address:..." key); Limited over it."""
    limit = rule(name)
    now = clock()
    window = int(now // limit.seconds)
    retry_after = max(1, math.ceil((window + 1) * limit.seconds - now))
    k = key(name, who, window)
    if cache.add(k, 1, timeout=limit.seconds + 1):
        return
    try:
        seen = cache.incr(k)
    except ValueError:  # expired between the two calls
        cache.add(k, 1, timeout=limit.seconds + 1)
        return
    if seen > limit.count:
        raise Limited(name, retry_after)


def peek(name: str, who: str) -> int:
    """How many are counted against `who` in the current window (for the tests and admins)."""
    limit = rule(name)
    return int(cache.get(key(name, who, int(clock() // limit.seconds))) or 0)


def forget(name: str, who: str) -> None:
    """Drop `who`'s count (a successful login clears its failures)."""
    limit = rule(name)
    cache.delete(key(name, who, int(clock() // limit.seconds)))


def person_of(request: HttpRequest) -> str | None:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"person:u{user.pk}"
    session = getattr(request, "session", None)
    session_key = getattr(session, "session_key", None)
    return f"person:s{session_key}" if session_key else None


def address_of(request: HttpRequest) -> str:
    return f"address:{request.META.get('REMOTE_ADDR') or 'unknown'}"


def count_request(name: str, request: HttpRequest) -> None:
    """Count a request against its person and its address; Limited when either is over.
    With the cache away (Redis down) nothing is counted and the request goes on."""
    person = person_of(request)
    try:
        if person is not None:
            count(name, person)
        count(name, address_of(request))
    except Limited:
        raise
    except Exception as exc:  # the cache is away: a limit never stops the site
        logger.warning("limit %s not counted: %r", name, exc)


def refusal(request: HttpRequest, exc: Limited, json: bool = False) -> HttpResponse:
    """429 with Retry-After: JSON for the JSON endpoints, a page for a browser."""
    if json:
        body = {"error": "rate_limited", "message": exc.message, "retry_after": exc.retry_after}
        response: HttpResponse = JsonResponse(body, status=429)
    else:
        context = {"message": exc.message, "retry_after": exc.retry_after}
        response = render(request, "limited.html", context, status=429)
    response["Retry-After"] = str(exc.retry_after)
    return response


def limited(name: str, json: bool = False, methods: tuple[str, ...] = ("POST",)) -> Callable:
    """A view counted against limit `name` (its `methods` only): over it, a 429 refusal."""

    def decorate(view: Callable) -> Callable:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
            if request.method in methods:
                try:
                    count_request(name, request)
                except Limited as exc:
                    return refusal(request, exc, json=json)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
