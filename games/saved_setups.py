"""Saved setups: an account keeps its favourite setups per variant on the server.

Guests keep theirs in the browser, but the same endpoint checks them first, so only
setups the engine's `validate_setup` accepts are ever saved. A layout is rows from the
owner's back row, columns from the owner's left: `layout[depth][col]` is a rank or null;
it is stored as Red's setup would stand.
"""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from . import engine
from .domain.models import MAX_SETUP_NAME_LENGTH as MAX_NAME_LENGTH
from .domain.models import SavedSetup
from .services import engine_error
from .services.rate_limits import limited

MAX_SETUPS_PER_VARIANT = 50


class LayoutError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def setup_from_layout(variant: engine.Variant, layout: object) -> dict[int, int]:
    """Red's {square: rank} for a layout, after the engine has validated it."""
    if not isinstance(layout, list) or len(layout) != variant.setup_rows:
        raise LayoutError("bad_field", f"layout must have {variant.setup_rows} rows")
    setup: dict[int, int] = {}
    for depth, line in enumerate(layout):
        if not isinstance(line, list) or len(line) != variant.width:
            raise LayoutError("bad_field", f"each layout row must have {variant.width} squares")
        for col, rank in enumerate(line):
            if rank is None:
                continue
            if not isinstance(rank, int) or isinstance(rank, bool):
                raise LayoutError("bad_field", "ranks are integers or null")
            setup[depth * variant.width + col] = rank
    try:
        engine.validate_setup(variant, engine.RED, setup)
    except engine.SetupError as exc:
        reason = engine_error(exc).message  # (in the page's language)
        raise LayoutError(
            exc.code, _("This setup is not legal: %(reason)s.") % {"reason": reason}
        ) from exc
    return setup


def get_variant_or_404(name: str) -> engine.Variant:
    try:
        return engine.get_variant(name)
    except engine.NotationError as exc:
        raise Http404(str(exc)) from exc


def error(code: str, message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": code, "message": message}, status=status)


@require_http_methods(["GET", "POST"])
@limited("save_setup", json=True)
def setup_list(request: HttpRequest, variant: str) -> JsonResponse:
    """GET: this account's setups for the variant. POST {name, layout}: check and save."""
    var = get_variant_or_404(variant)
    account = request.user.is_authenticated
    if request.method == "GET":
        rows = SavedSetup.objects.filter(user=request.user, variant=var.name) if account else []
        return JsonResponse({"account": account, "setups": [s.to_dict() for s in rows]})
    try:
        body = json.loads(request.body or b"{}")
    except (ValueError, RecursionError):  # RecursionError: an array nested thousands deep
        return error("bad_json", "The request body is not JSON.")
    if not isinstance(body, dict):
        return error("bad_json", "The request body must be a JSON object.")
    name = str(body.get("name") or "").strip()[:MAX_NAME_LENGTH]
    if not name:
        return error("bad_field", _("A saved setup needs a name."))
    if not name.isprintable():  # a NUL byte would be refused by PostgreSQL (HTTP 500)
        return error("bad_field", _("A setup's name is printable text."))
    try:
        setup_from_layout(var, body.get("layout"))
    except LayoutError as exc:
        return error(exc.code, exc.message)
    if not account:
        return JsonResponse({"stored": False, "valid": True})
    existing = SavedSetup.objects.filter(user=request.user, variant=var.name)
    if existing.count() >= MAX_SETUPS_PER_VARIANT and not existing.filter(name=name).exists():
        return error(
            "too_many",
            _("At most %(count)s setups per variant.") % {"count": MAX_SETUPS_PER_VARIANT},
        )
    saved, _created = SavedSetup.objects.update_or_create(
        user=request.user, variant=var.name, name=name, defaults={"layout": body["layout"]}
    )
    return JsonResponse({"stored": True, "setup": saved.to_dict()}, status=201)


@require_POST
def setup_delete(request: HttpRequest, variant: str, setup_id: int) -> JsonResponse:
    if not request.user.is_authenticated:
        return error("no_identity", _("Log in to manage saved setups."), status=403)
    saved = get_object_or_404(SavedSetup, id=setup_id, user=request.user, variant=variant)
    saved.delete()
    return JsonResponse({"deleted": setup_id})
