"""Learning the game: the rules in a player's words and the tutorial's lessons."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def tutorial(request: HttpRequest) -> HttpResponse:
    return render(request, "learn/tutorial.html")


def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "learn/rules.html")
