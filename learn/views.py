"""Learning the game: the rules in a player's words, with small diagrams, and the tutorial's
lessons, every move of which the engine judges (learn/tutor.py)."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from games import engine

from . import tutor
from .diagrams import DIAGRAMS
from .lessons import LESSONS


def tutorial(request: HttpRequest) -> HttpResponse:
    lessons = [{"slug": x.slug, "title": str(x.title)} for x in LESSONS]
    first = request.GET.get("lesson", LESSONS[0].slug)
    if first not in {x["slug"] for x in lessons}:
        first = LESSONS[0].slug
    context = {
        "lessons": lessons,
        "tutorial": {
            "lessons": lessons,
            "first": first,
            "url": reverse("learn:lesson", args=["SLUG"]),
        },
    }
    return render(request, "learn/tutorial.html", context)


@csrf_exempt  # (it reads a position and changes nothing on the server)
@require_http_methods(["GET", "POST"])
def lesson(request: HttpRequest, slug: str) -> JsonResponse:
    """GET: the lesson's start. POST {moves, tried}: the try so far and one move more."""
    try:
        if request.method == "GET":
            return JsonResponse(tutor.state(slug, []))
        try:
            body = json.loads(request.body or b"{}")
        except ValueError:
            raise tutor.LessonError("the body is not JSON") from None
        if not isinstance(body, dict):
            raise tutor.LessonError("the body is a JSON object")
        return JsonResponse(tutor.state(slug, body.get("moves", []), body.get("tried")))
    except tutor.LessonError as exc:
        return JsonResponse({"error": "bad_lesson_request", "message": str(exc)}, status=400)


def rules(request: HttpRequest) -> HttpResponse:
    diagrams = {name: diagram() for name, diagram in DIAGRAMS.items()}
    return render(request, "learn/rules.html", {"diagrams": diagrams, "rank_rows": rank_rows()})


def rank_rows() -> list[dict]:
    """The pieces, strongest first, with how many each army has in a classic game."""
    army = dict(engine.get_variant("classic").army)
    order = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 11, 12]
    return [{"rank": rank, "count": army.get(rank, 0)} for rank in order]
