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
from games.domain.identity import NICKNAME_KEY, Identity
from games.services import VARIANT_NAMES, adopt_guest_games
from games.services.rate_limits import limited
from games.services.snapshots import lobby_lists
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


def mine(entry: dict, me: str) -> bool:
    return bool(me) and any(seat and seat["name"] == me for seat in entry["seats"])


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
        "lobby": lists,  # the lists' rows are drawn by static/ui/lobby.js, from this and the socket
    }
    context["joinable"] = sum(not mine(entry, me) for entry in lists["waiting"]) + sum(
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
        account = Identity(user_id=user.pk, session_key=None, name=user.get_username())
        adopted = adopt_guest_games(
            guest_session if request.session.get(NICKNAME_KEY) else None, account
        )
        login(request, user)
        if adopted:
            note = _("Your %(count)s guest game(s) are now on your profile.")
            messages.info(request, note % {"count": adopted})
        return redirect("lobby:index")
    return render(request, "registration/signup.html", {"form": form})
