"""The lobby page, guest nicknames and account sign-up."""

from __future__ import annotations

import re

from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import resolve, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from games import engine
from games.bots import LEVELS as COMPUTER_LEVELS
from games.domain import options
from games.domain.identity import NICKNAME_KEY
from games.services import VARIANT_NAMES
from games.services.rate_limits import limited
from games.services.snapshots import lobby_lists
from players.accounts import adopt_guest_games
from players.name_claims import NameTaken, claim_guest_name, release_guest_names
from players.ratings import VARIANTS

from .forms import SignupForm
from .seeks import open_seeks

NICKNAME_RE = re.compile(r"^[A-Za-z0-9_.-]{1,24}$")

# One line per computer level: how it plays and roughly how strong (docs/bots.md).
LEVEL_LINES = {
    "random": gettext_lazy("moves at random: for your very first game"),
    "medium": gettext_lazy("takes what it can beat, guards its flag: a gentle opponent"),
    "hard": gettext_lazy("guesses your pieces from how they move: a real fight"),
    "expert": gettext_lazy("thinks a second ahead on every move: the strongest here"),
}
VARIANT_LINES = {
    "classic": gettext_lazy("10×10, 40 pieces each"),
    "barrage": gettext_lazy("10×10, 8 pieces: quick"),
    "duel": gettext_lazy("10×10, 10 pieces"),
    "mini": gettext_lazy("5×5, 10 pieces: a few minutes"),
}
# The forms a visitor without a name may send along with a nickname: signed on, then played.
THEN_URLS = {"play_now": "players:play_now", "computer": "games:vs_computer"}

COLOR_NAMES = (gettext_lazy("Red"), gettext_lazy("Blue"))
# The engine's termination labels (games/engine/results.py, served to scripts as
# /games/terminations.json), in the reader's language. The engine knows no Django: its labels
# are marked here for the catalogues, and a test keeps the two lists the same.
TERMINATION_MESSAGES = (
    gettext_noop("the flag was captured"),
    gettext_noop("no legal move left"),
    gettext_noop("neither side can move"),
    gettext_noop("the move limit was reached"),
    gettext_noop("resignation"),
    gettext_noop("a draw was agreed"),
    gettext_noop("on time"),
    gettext_noop("the other player left"),
    gettext_noop("cancelled before it started"),
    gettext_noop("abandoned: nobody was there any more"),
)
TERMINATIONS = {key: gettext_lazy(label) for key, label in engine.TERMINATION_LABELS.items()}


def lobby_row(entry: dict, kind: str, me: str) -> dict:
    """What a row of the lobby's lists shows, as static/ui/lobby.js draws it from the socket."""
    ratings = entry.get("ratings") or [None, None]
    seats = " vs ".join(
        f"{seat_text(seat, ratings[i])} ({seat_mark(seat)}{COLOR_NAMES[i]})"
        for i, seat in enumerate(entry["seats"])
    )
    row = {
        **entry,
        "title": f"{entry['variant']} · {seats}",
        "title_parts": title_parts(entry),
        "mine": bool(me) and any(seat and seat["name"] == me for seat in entry["seats"]),
        "replayable": False,
        "rating_note": rating_note(entry),
        "bot": any(seat and seat.get("bot") for seat in entry["seats"]),
    }
    if kind == "waiting":
        row["meta"] = _("waiting for an opponent")
    elif kind == "live":
        where = _("setting up") if entry["status"] == "setup" else _("move %(ply)s") % entry
        watching = _("%(spectators)s watching") % entry
        row["meta"] = f"{where} · {watching}"
    else:
        result = entry["result"]
        if not result:
            row["meta"] = entry["status"]
        elif result["termination"] in ("aborted", "abandoned"):  # no result
            row["meta"] = str(TERMINATIONS[result["termination"]])
        else:
            winner = result["winner"]
            won = _("%(color)s won")
            who = _("draw") if winner is None else won % {"color": COLOR_NAMES[winner]}
            why = TERMINATIONS.get(result["termination"], result["termination"])
            row["meta"] = f"{who} · {why}"
        row["replayable"] = entry["status"] != "aborted" and entry["ply"] > 0
    return row


def seat_text(seat: dict | None, rating: str | None) -> str:
    """A seat as the lobby names it: "free", "guest7", "alice 1523" (as lobby.js does)."""
    if not seat:
        return _("free")
    return f"{seat['name']} {rating}" if rating else seat["name"]


def title_parts(entry: dict) -> list[dict]:
    """The title as pieces of text, an account's name a link to its profile (as lobby.js
    draws it); joined, they read as the row's `title`."""
    ratings = entry.get("ratings") or [None, None]
    parts: list[dict] = [{"text": f"{entry['variant']} · "}]
    for color, seat in enumerate(entry["seats"]):
        if color:
            parts.append({"text": " vs "})
        if seat and not seat.get("guest") and not seat.get("computer"):
            parts.append({"text": seat["name"], "href": reverse("players:profile",
                                                                args=[seat["name"]])})  # fmt: skip
            after = f" {ratings[color]}" if ratings[color] else ""
        else:
            after = seat_text(seat, ratings[color])
        parts.append({"text": f"{after} ({seat_mark(seat)}{COLOR_NAMES[color]})"})
    return parts


def seat_mark(seat: dict | None) -> str:
    """ "guest, " before a guest's colour: "Ada (guest, Red)", never mistaken for an account."""
    return f"{_('guest')}, " if seat and seat.get("guest") else ""


def rating_note(entry: dict) -> str:
    """ "rated", "rated · 1300-1700", "casual · up to 1700", or "" for a casual game for all."""
    low, high = entry.get("rating_range") or [None, None]
    if low is None and high is None:
        span = ""
    elif high is None:
        span = f"{low}+"
    elif low is None:
        span = _("up to %(high)s") % {"high": high}
    else:
        span = f"{low}-{high}"
    kind = _("rated") if entry.get("rated") else (_("casual") if span else "")
    return " · ".join(part for part in (kind, span) if part)


def current_name(request: HttpRequest) -> str:
    me = request.user.get_username() if request.user.is_authenticated else ""
    return me or request.session.get(NICKNAME_KEY, "")


@ensure_csrf_cookie
def index(request: HttpRequest, status: int = 200, **extra: str) -> HttpResponse:
    lists = lobby_lists()
    me = current_name(request)
    context = {
        **extra,
        "level_lines": [(level, LEVEL_LINES.get(level, "")) for level in COMPUTER_LEVELS],
        "variant_lines": [(v, VARIANT_LINES.get(v, "")) for v in VARIANT_NAMES],
        "seeks": open_seeks(request, me),
        "variants": VARIANT_NAMES,
        "rated_variants": VARIANTS,
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
    context["joinable"] = sum(not row["mine"] for row in context["waiting"]) + sum(
        not seek["mine"] for seek in context["seeks"]
    )
    return render(request, "lobby/index.html", context, status=status)


def seeks(request: HttpRequest) -> JsonResponse:
    """The open "Play now" seeks, for the lobby to refresh its list (lobby.js)."""
    return JsonResponse({"seeks": open_seeks(request, current_name(request))})


def nickname_refused(request: HttpRequest, name: str, message: str) -> HttpResponse:
    """The form again, the reason beside the field; from a game page, back there with it."""
    next_url = request.POST.get("next", "")
    if next_url:
        messages.error(request, message)
        return redirect(safe_next(next_url))
    return index(request, status=400, nickname_error=message, nickname_value=name)


def safe_next(next_url: str) -> str:
    return next_url if next_url.startswith("/") and not next_url.startswith("//") else "/"


@require_POST
@limited("sign_on")
def nickname(request: HttpRequest) -> HttpResponse:
    name = request.POST.get("nickname", "").strip()
    if not name:
        why = _("Choose a nickname first: it is how others see you.")
        return nickname_refused(request, name, why)
    if not NICKNAME_RE.match(name):
        return nickname_refused(request, name, nickname_problem(name))
    new_session = request.session.session_key is None
    if new_session:
        request.session.save()  # (a name is held by a session: it needs its key)
    try:
        claim_guest_name(name, request.session.session_key)
    except NameTaken as exc:
        if new_session:
            request.session.flush()  # refused: the visitor is not signed on with anything
        return nickname_refused(request, name, exc.message)
    request.session[NICKNAME_KEY] = name
    then = THEN_URLS.get(request.POST.get("then", ""))
    if then:  # the lobby's play forms, sent before the visitor had a name
        return resolve(reverse(then)).func(request)
    return redirect(safe_next(request.POST.get("next", "")))


def nickname_problem(name: str) -> str:
    """Why `name` is no nickname, in words."""
    if len(name) > 24:
        return _("A nickname has at most 24 characters; this one has %(count)d.") % {
            "count": len(name)
        }
    if " " in name:
        return _("A nickname has no spaces: try %(example)s.") % {
            "example": re.sub(r"\s+", "_", name)[:24]
        }
    odd = "".join(sorted({c for c in name if not re.match(r"[A-Za-z0-9_.-]", c)}))
    return _("A nickname uses only letters A-Z, digits and _ - . (not %(chars)s).") % {"chars": odd}


@require_POST
def sign_off(request: HttpRequest) -> HttpResponse:
    """A guest forgets their nickname (and this browser's session) and starts over."""
    release_guest_names(request.session.session_key)
    request.session.flush()
    return redirect("lobby:index")


@limited("sign_up")
def signup(request: HttpRequest) -> HttpResponse:
    guest_session = request.session.session_key  # login() gives the browser a new one
    form = SignupForm(request.POST or None, session_key=guest_session)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        release_guest_names(guest_session)
        adopted = adopt_guest_games(
            guest_session if request.session.get(NICKNAME_KEY) else None, user
        )
        login(request, user)
        if adopted:
            note = _("Your %(count)s guest game(s) are now on your profile.")
            messages.info(request, note % {"count": adopted})
        return redirect("lobby:index")
    return render(request, "registration/signup.html", {"form": form})
