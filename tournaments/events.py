"""Creating an event, and what its creator and the admins may do to it before and while it
runs: edit (before the start), feature, cancel, remove a player."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.domain import options
from games.domain.errors import ServiceError
from games.services import VARIANT_NAMES

from .errors import TournamentError
from .models import Tournament

MAX_ROUNDS = 20
MAX_MINUTES = 24 * 60
MAX_UPCOMING_PER_CREATOR = 5  # events one account may have waiting to start
SWISS_DEFAULT_ROUNDS = 5


@dataclass
class Settings:
    """What a creator chooses (a form, the admin or a test fills it)."""

    name: str
    format: str = Tournament.Format.SWISS
    variant: str = "classic"
    time_control: str = ""
    rated: bool = True
    starts_at: datetime | None = None
    rounds: int = SWISS_DEFAULT_ROUNDS
    double: bool = False
    minutes: int = 60
    rating_min: int | None = None
    rating_max: int | None = None
    private: bool = False


def checked(settings: Settings) -> Settings:
    name = " ".join((settings.name or "").split())
    if not 3 <= len(name) <= 80 or not name.isprintable():
        raise TournamentError("bad_name", _("A name of 3 to 80 characters, please."))
    if settings.format not in Tournament.Format.values:
        raise TournamentError("bad_format", _("The format is Swiss, round-robin or arena."))
    if settings.variant not in VARIANT_NAMES:
        text = _("Unknown variant %(variant)s.")
        raise TournamentError("bad_variant", text % {"variant": repr(settings.variant)})
    try:
        control = options.time_control(settings.time_control or None)
    except ServiceError as exc:
        raise TournamentError("bad_time_control", exc.message) from None
    if settings.format == Tournament.Format.ARENA and control is None:
        raise TournamentError("bad_time_control", _("An arena is played with a clock."))
    if settings.format == Tournament.Format.SWISS and not 1 <= settings.rounds <= MAX_ROUNDS:
        text = _("A Swiss has 1 to %(most)s rounds.")
        raise TournamentError("bad_rounds", text % {"most": MAX_ROUNDS})
    if settings.format == Tournament.Format.ARENA and not 1 <= settings.minutes <= MAX_MINUTES:
        raise TournamentError("bad_minutes", _("An arena lasts 1 minute to 24 hours."))
    starts = settings.starts_at
    if starts is None or starts < timezone.now() - timedelta(minutes=1):
        raise TournamentError("bad_start", _("The start is a time from now on."))
    if starts > timezone.now() + timedelta(days=90):
        raise TournamentError("bad_start", _("The start is within 90 days."))
    low, high = settings.rating_min, settings.rating_max
    for value in (low, high):
        if value is not None and not 0 <= value <= 4000:
            raise TournamentError("bad_rating_range", _("A rating range is from 0 to 4000."))
    if low is not None and high is not None and low > high:
        raise TournamentError("bad_rating_range", _("The lowest rating is above the highest."))
    settings.name = name
    settings.time_control = control.id if control else ""
    return settings


def check_user(user) -> None:  # noqa: ANN001 - a User or an AnonymousUser
    if user is None or not user.is_authenticated:
        raise TournamentError("account_needed", _("Log in or sign up to create or enter events."))


def may_manage(tournament: Tournament, user) -> bool:  # noqa: ANN001 - a User
    return bool(user and user.is_authenticated) and (
        user.is_staff or tournament.created_by_id == user.pk
    )


def check_manager(tournament: Tournament, user) -> None:  # noqa: ANN001
    if not may_manage(tournament, user):
        raise TournamentError("not_allowed", _("Only the event's creator or an admin may do that."))


def create(user, settings: Settings) -> Tournament:  # noqa: ANN001 - a User
    check_user(user)
    settings = checked(settings)
    if not user.is_staff:
        waiting = Tournament.objects.filter(
            created_by=user, status=Tournament.Status.UPCOMING
        ).count()
        if waiting >= MAX_UPCOMING_PER_CREATOR:
            text = _("You have %(count)s events waiting to start already.")
            raise TournamentError("too_many_events", text % {"count": waiting})
    return Tournament.objects.create(created_by=user, **fields(settings))


def fields(settings: Settings) -> dict:
    return {
        "name": settings.name,
        "format": settings.format,
        "variant": settings.variant,
        "time_control": settings.time_control,
        "rated": settings.rated,
        "starts_at": settings.starts_at,
        "rounds": settings.rounds if settings.format == Tournament.Format.SWISS else 0,
        "double": settings.double and settings.format == Tournament.Format.ROUND_ROBIN,
        "minutes": settings.minutes if settings.format == Tournament.Format.ARENA else 0,
        "rating_min": settings.rating_min,
        "rating_max": settings.rating_max,
        "private": settings.private,
    }


def settings_of(tournament: Tournament) -> Settings:
    return Settings(
        name=tournament.name,
        format=tournament.format,
        variant=tournament.variant,
        time_control=tournament.time_control,
        rated=tournament.rated,
        starts_at=tournament.starts_at,
        rounds=tournament.rounds or SWISS_DEFAULT_ROUNDS,
        double=tournament.double,
        minutes=tournament.minutes or 60,
        rating_min=tournament.rating_min,
        rating_max=tournament.rating_max,
        private=tournament.private,
    )


def locked(tournament_id: int) -> Tournament:
    found = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if found is None:
        raise TournamentError("not_found", _("There is no such event."))
    return found


def edit(tournament_id: int, user, settings: Settings) -> Tournament:  # noqa: ANN001
    from . import live

    with transaction.atomic():
        tournament = locked(tournament_id)
        check_manager(tournament, user)
        if tournament.status != Tournament.Status.UPCOMING:
            raise TournamentError("already_started", _("An event can be edited before it starts."))
        for key, value in fields(checked(settings)).items():
            setattr(tournament, key, value)
        tournament.save()
        live.changed_on_commit(tournament.pk, wake=True)
    return tournament


def feature(tournament_id: int, user, on: bool = True) -> None:  # noqa: ANN001
    from . import live

    if not (user and user.is_authenticated and user.is_staff):
        raise TournamentError("not_allowed", _("Only an admin may feature an event."))
    with transaction.atomic():
        tournament = locked(tournament_id)
        tournament.featured = on
        tournament.save(update_fields=["featured"])
        live.changed_on_commit(tournament.pk)


def cancel(tournament_id: int, user, reason: str = "") -> None:  # noqa: ANN001
    """Cancel an event that has not finished: its games still going are aborted (they count
    for nobody's standings any more, and for no rating)."""
    from . import rounds

    with transaction.atomic():
        tournament = locked(tournament_id)
        check_manager(tournament, user)
        if not tournament.is_open:
            raise TournamentError("event_over", _("This event is over already."))
        if tournament.status == Tournament.Status.RUNNING and not user.is_staff:
            raise TournamentError("not_allowed", _("Only an admin may cancel a running event."))
        # Without a reason typed, words the page translates (tournaments/_live.html).
        by = gettext_noop("by an admin") if user.is_staff else gettext_noop("by its organiser")
        rounds.end_as_cancelled(tournament, reason or by)
