"""The event pages: the list, one event (live over tournaments/consumers.py), creating and
editing, and the buttons (enter, withdraw, add a computer, remove, feature, cancel)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games.bots import LEVELS
from games.domain import options
from games.services import VARIANT_NAMES

from . import entries, events, pages
from .errors import TournamentError
from .models import Tournament

# A number field of the form that is not one: its code and its refusal.
NOT_A_NUMBER = {
    "rounds": ("bad_rounds", gettext_lazy("The number of rounds is a whole number.")),
    "minutes": ("bad_minutes", gettext_lazy("An arena's length in minutes is a whole number.")),
    "rating_min": ("bad_rating_range", gettext_lazy("The lowest rating is a whole number.")),
    "rating_max": ("bad_rating_range", gettext_lazy("The highest rating is a whole number.")),
}


def index(request: HttpRequest) -> HttpResponse:
    context = {**pages.lists(), **form_choices(), "form": events.Settings(name="")}
    return render(request, "tournaments/index.html", context)


def form_choices() -> dict:
    return {
        "formats": Tournament.Format.choices,
        "variants": VARIANT_NAMES,
        "time_controls": options.TIME_CONTROLS,
        "default_start": timezone.localtime(timezone.now() + timedelta(minutes=10)),
    }


def read_form(request: HttpRequest) -> events.Settings:
    post = request.POST

    def number(key: str, default: int | None) -> int | None:
        text = (post.get(key) or "").strip()
        if not text:
            return default
        if not text.isdigit():
            code, message = NOT_A_NUMBER[key]
            raise TournamentError(code, str(message))
        return int(text)

    starts = None
    text = (post.get("starts_at") or "").strip()
    if text:
        try:
            starts = datetime.fromisoformat(text)
        except ValueError:
            raise TournamentError("bad_start", _("The start is a date and a time.")) from None
        if timezone.is_naive(starts):
            starts = from_local(starts, post.get("tz_offset", ""))
    return events.Settings(
        name=post.get("name", ""),
        format=post.get("format", "swiss"),
        variant=post.get("variant", "classic"),
        time_control=post.get("time_control", ""),
        rated=post.get("rated") == "on",
        starts_at=starts,
        rounds=number("rounds", events.SWISS_DEFAULT_ROUNDS) or 0,
        double=post.get("double") == "on",
        minutes=number("minutes", 60) or 0,
        rating_min=number("rating_min", None),
        rating_max=number("rating_max", None),
        private=post.get("private") == "on",
    )


def from_local(naive: datetime, offset: str) -> datetime:
    """A form's local time made a moment: the browser's offset from UTC in minutes (as
    JavaScript's getTimezoneOffset gives it), else the server's time zone."""
    text = offset.strip().lstrip("-")
    if text.isdigit() and int(text) <= 16 * 60:
        minutes = int(offset.strip())
        return (naive + timedelta(minutes=minutes)).replace(tzinfo=UTC)
    return timezone.make_aware(naive)


@require_POST
def create(request: HttpRequest) -> HttpResponse:
    try:
        tournament = events.create(request.user, read_form(request))
    except TournamentError as exc:
        messages.error(request, exc.message)
        return redirect("tournaments:index")
    return redirect(page_url(tournament))


def page_url(tournament: Tournament) -> str:
    url = reverse("tournaments:detail", args=[tournament.pk])
    return f"{url}?invite={tournament.invite_code}" if tournament.private else url


def found(pk: int) -> Tournament:
    tournament = Tournament.objects.filter(pk=pk).first()
    if tournament is None:
        raise Http404(_("There is no such event."))
    return tournament


def detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = found(pk)
    code = request.GET.get("invite", "")
    manager = events.may_manage(tournament, request.user)
    if tournament.private and code != tournament.invite_code and not manager:
        raise Http404(_("There is no such event."))
    entrant = entries.entrant_of(tournament, request.user)
    context = {
        **pages.context(tournament),
        "entrant": entrant if entrant and entrant.active else None,
        "manager": manager,
        "invite": code,
        "levels": LEVELS,
        "invite_url": request.build_absolute_uri(page_url(tournament)),
        "my_game": pages.game_of(tournament, request.user),
    }
    return render(request, "tournaments/detail.html", context)


def act(request: HttpRequest, pk: int, action) -> HttpResponse:  # noqa: ANN001
    try:
        done = action()
    except TournamentError as exc:
        messages.error(request, exc.message)
    else:
        if done:
            messages.success(request, done)
    tournament = found(pk)
    if events.may_manage(tournament, request.user):
        return redirect(page_url(tournament))
    return redirect(reverse("tournaments:detail", args=[pk]) + invite_query(request))


def invite_query(request: HttpRequest) -> str:
    code = request.POST.get("invite", "")
    return f"?invite={code}" if code else ""


@require_POST
def enter(request: HttpRequest, pk: int) -> HttpResponse:
    code = request.POST.get("invite", "")
    return act(request, pk, lambda: entries.enter(pk, request.user, code) and _("You are in."))


@require_POST
def withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    return act(request, pk, lambda: entries.withdraw(pk, request.user) or _("You withdrew."))


@require_POST
def add_computer(request: HttpRequest, pk: int) -> HttpResponse:
    level = request.POST.get("level", "")
    return act(request, pk, lambda: entries.add_computer(pk, request.user, level) and
               _("Computer (%(level)s) is in.") % {"level": level})  # fmt: skip


@require_POST
def remove(request: HttpRequest, pk: int, entrant: int) -> HttpResponse:
    return act(request, pk, lambda: entries.remove(pk, request.user, entrant) or _("Removed."))


@require_POST
def feature(request: HttpRequest, pk: int) -> HttpResponse:
    on = request.POST.get("on") == "1"
    return act(request, pk, lambda: events.feature(pk, request.user, on) or _("Done."))


@require_POST
def cancel(request: HttpRequest, pk: int) -> HttpResponse:
    return act(request, pk, lambda: events.cancel(pk, request.user) or _("The event is cancelled."))


def edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = found(pk)
    if not events.may_manage(tournament, request.user):
        messages.error(request, _("Only the event's creator or an admin may edit it."))
        return redirect("tournaments:detail", pk)
    if request.method == "POST":
        try:
            events.edit(pk, request.user, read_form(request))
        except TournamentError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Saved."))
            return redirect(page_url(tournament))
    context = {"t": tournament, "form": events.settings_of(tournament), **form_choices()}
    context["default_start"] = timezone.localtime(tournament.starts_at)
    return render(request, "tournaments/edit.html", context)


def next_game(request: HttpRequest, pk: int) -> HttpResponse:
    """ "Your next game": the game going on, else back to the event."""
    tournament = found(pk)
    game = pages.game_of(tournament, request.user)
    if game is not None:
        return redirect("games:detail", game.public_id)
    return redirect(page_url(tournament) if events.may_manage(tournament, request.user)
                    else reverse("tournaments:detail", args=[pk]))  # fmt: skip
