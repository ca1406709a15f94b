"""The lobby page, guest nicknames and account sign-up."""

from __future__ import annotations

import re

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from games import options
from games.bots import LEVELS as COMPUTER_LEVELS
from games.identity import NICKNAME_KEY
from games.services import VARIANT_NAMES
from games.snapshots import lobby_lists

NICKNAME_RE = re.compile(r"^[A-Za-z0-9_.-]{1,24}$")

COLOR_NAMES = ("Red", "Blue")
# As TERMINATIONS in static/ui/moves.js: the first page load and the socket's lists read alike.
TERMINATIONS = {
    "flag_captured": "the flag was captured",
    "no_moves": "no legal move left",
    "no_moves_both": "neither side can move",
    "move_cap": "the move limit was reached",
    "resignation": "resignation",
    "agreed_draw": "a draw was agreed",
    "time": "on time",
    "forfeit": "the other player left",
    "aborted": "cancelled before it started",
}


def lobby_row(entry: dict, kind: str, me: str) -> dict:
    """What a row of the lobby's lists shows, as static/ui/lobby.js draws it from the socket."""
    seats = " vs ".join(
        f"{seat['name'] if seat else 'free'} ({COLOR_NAMES[i]})"
        for i, seat in enumerate(entry["seats"])
    )
    row = {
        **entry,
        "title": f"{entry['variant']} · {seats}",
        "mine": bool(me) and any(seat and seat["name"] == me for seat in entry["seats"]),
        "replayable": False,
    }
    if kind == "waiting":
        row["meta"] = "waiting for an opponent"
    elif kind == "live":
        where = "setting up" if entry["status"] == "setup" else f"move {entry['ply']}"
        row["meta"] = f"{where} · {entry['spectators']} watching"
    else:
        result = entry["result"]
        if not result:
            row["meta"] = entry["status"]
        elif result["termination"] == "aborted":
            row["meta"] = TERMINATIONS["aborted"]
        else:
            who = "draw" if result["winner"] is None else f"{COLOR_NAMES[result['winner']]} won"
            why = TERMINATIONS.get(result["termination"], result["termination"])
            row["meta"] = f"{who} · {why}"
        row["replayable"] = entry["status"] != "aborted" and entry["ply"] > 0
    return row


@ensure_csrf_cookie
def index(request: HttpRequest) -> HttpResponse:
    lists = lobby_lists()
    me = request.user.get_username() if request.user.is_authenticated else ""
    me = me or request.session.get(NICKNAME_KEY, "")
    context = {
        "variants": VARIANT_NAMES,
        "time_controls": options.TIME_CONTROLS,
        "two_squares_choices": options.TWO_SQUARES_CHOICES,
        "setup_minutes": options.SETUP_SECONDS // 60,
        "two_squares_variants": " ".join(filter(options.has_two_squares_rule, VARIANT_NAMES)),
        "army_variants": " ".join(filter(options.has_army_choices, VARIANT_NAMES)),
        "army_drawn": options.ARMY_DRAWN,
        "computer_levels": COMPUTER_LEVELS,
        "lobby": lists,
        "waiting": [lobby_row(g, "waiting", me) for g in lists["waiting"]],
        "live": [lobby_row(g, "live", me) for g in lists["live"]],
        "finished": [lobby_row(g, "finished", me) for g in lists["finished"]],
    }
    return render(request, "lobby/index.html", context)


@require_POST
def nickname(request: HttpRequest) -> HttpResponse:
    name = request.POST.get("nickname", "").strip()
    if not NICKNAME_RE.match(name):
        messages.error(request, "A nickname is 1-24 letters, digits, '_', '-' or '.'.")
        return redirect("lobby:index")
    request.session[NICKNAME_KEY] = name
    if request.session.session_key is None:
        request.session.save()
    next_url = request.POST.get("next", "")
    return redirect(next_url if next_url.startswith("/") and not next_url.startswith("//") else "/")


def signup(request: HttpRequest) -> HttpResponse:
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect("lobby:index")
    return render(request, "registration/signup.html", {"form": form})
