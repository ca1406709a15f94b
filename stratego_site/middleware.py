"""A page's database connection, borrowed before anything else of the request needs it.

With a bounded pool (settings.DATABASE_POOL_SIZE per process) a crowd of page views waits for
a free connection; one that waits DATABASE_POOL_TIMEOUT seconds in vain gets 503 with
Retry-After here, before the session or the view start, instead of an exception halfway
through (Django's 500). The connection goes back to the pool when the request finishes
(CONN_MAX_AGE 0). A database that fails later in the view gets the same answer."""

from __future__ import annotations

from collections.abc import Callable

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext

from games.transport import unavailable


class DatabaseAvailabilityMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            connection.ensure_connection()
        except unavailable.ERRORS as exc:
            unavailable.note(request.path, exc)
            return busy_response(request)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if isinstance(exc, unavailable.ERRORS):
            unavailable.note(request.path, exc)
            return busy_response(request)
        return None


def wants_json(request: HttpRequest) -> bool:
    accept = request.headers.get("Accept", "")
    return request.path.startswith("/api/") or (
        "application/json" in accept and "text/html" not in accept
    )


def busy_response(request: HttpRequest) -> HttpResponse:
    if wants_json(request):
        response: HttpResponse = JsonResponse(
            {"error": "unavailable", "message": gettext(unavailable.MESSAGE)}, status=503
        )
    else:
        html = render_to_string("503.html", {"message": gettext(unavailable.MESSAGE)})
        response = HttpResponse(html, status=503)
    response["Retry-After"] = str(unavailable.RETRY_AFTER_SECONDS)
    return response
