"""The leaderboard (/players/) and a player's profile (/players/<name>/)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from games.domain.models import SavedSetup
from moderation.models import REASONS

from . import history
from .glicko import PROVISIONAL_DEVIATION
from .leaderboard import ACTIVE_DAYS, leaderboard
from .ratings import VARIANTS


def board(request: HttpRequest) -> HttpResponse:
    variant = request.GET.get("variant", "classic")
    if variant not in VARIANTS:
        variant = "classic"
    rows = list(leaderboard(variant))
    context = {
        "variant": variant,
        "variants": VARIANTS,
        "rows": rows,
        "active_days": ACTIVE_DAYS,
        "provisional_deviation": round(PROVISIONAL_DEVIATION),
    }
    return render(request, "players/leaderboard.html", context)


def profile(request: HttpRequest, name: str) -> HttpResponse:
    user = get_object_or_404(get_user_model(), username=name)
    own = request.user.is_authenticated and request.user.pk == user.pk
    context = {
        "person": user,
        "own": own,
        "stories": history.stories(user.pk),
        "games": history.game_rows(user.pk),
        "games_shown": history.GAMES_SHOWN,
        "setups": SavedSetup.objects.filter(user=user) if own else None,
        "report_reasons": REASONS,
        "banned": getattr(getattr(user, "player_status", None), "banned_from_rated", False),
    }
    return render(request, "players/profile.html", context)
