"""Who plays: entering, withdrawing, computer levels added by the creator, and a player
removed by an admin. Every refusal is a TournamentError with its code."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.domain import words
from games.domain.errors import ServiceError
from games.domain.identity import Identity
from games.services.computer import check_level
from players import ratings

from . import live
from .errors import TournamentError
from .events import check_manager, check_user, locked
from .models import Entrant, Tournament
from .table import rating_now

MAX_ENTRANTS = 500


def check_may_enter(tournament: Tournament, user, code: str = "") -> None:  # noqa: ANN001
    check_user(user)
    if not tournament.is_open:
        raise TournamentError("event_over", _("This event is over."))
    if tournament.status == Tournament.Status.RUNNING and tournament.format != "arena":
        raise TournamentError(
            "already_started", _("This event has started: entries closed at its start.")
        )
    invited = code == tournament.invite_code or tournament.created_by_id == user.pk
    if tournament.private and not invited:
        raise TournamentError("invitation_needed", _("This event is by invitation: use its link."))
    ident = Identity(user.pk, None, user.get_username())
    try:
        from moderation.sanctions import check_not_banned  # moderation imports games

        check_not_banned(ident)
        if tournament.rated:
            ratings.check_rated_seat(ident)
    except ServiceError as exc:
        raise TournamentError("banned" if exc.code == "banned" else exc.code, exc.message) from None
    if tournament.rating_min is not None or tournament.rating_max is not None:
        mine = round(ratings.rating_of(ident, tournament.variant))
        low, high = tournament.rating_min or 0, tournament.rating_max or 4000
        if not low <= mine <= high:
            text = _("This event is for ratings %(low)s-%(high)s; yours is %(mine)s.")
            raise TournamentError(
                "rating_out_of_range", text % {"low": low, "high": high, "mine": mine}
            )


def enter(tournament_id: int, user, code: str = "") -> Entrant:  # noqa: ANN001 - a User
    """Enter `user` (an account, or a bot account) before the start, or an arena while it
    runs. A player who withdrew may come back on the same terms."""
    check_user(user)
    with transaction.atomic():
        tournament = locked(tournament_id)
        check_may_enter(tournament, user, code)
        entrant = Entrant.objects.filter(tournament=tournament, user=user).first()
        if entrant is not None and entrant.removed:
            raise TournamentError("not_allowed", _("An admin removed you from this event."))
        if entrant is not None and entrant.withdrawn is None:
            raise TournamentError("already_entered", _("You have entered this event already."))
        if entrant is None and tournament.entrants.count() >= MAX_ENTRANTS:
            text = _("This event is full (%(most)s players).")
            raise TournamentError("full", text % {"most": MAX_ENTRANTS})
        if entrant is None:
            entrant = Entrant(tournament=tournament, user=user, name=user.get_username())
        entrant.withdrawn = None
        if tournament.status == Tournament.Status.RUNNING and entrant.rating_start is None:
            entrant.rating_start = rating_now(entrant, tournament.variant)
        entrant.save()
        live.changed_on_commit(tournament.pk, wake=True)
    return entrant


def withdraw(tournament_id: int, user) -> None:  # noqa: ANN001
    """Leave the event: before the start, the entry goes; after it, the games played stay and
    no new ones are paired (a game going on is played out)."""
    check_user(user)
    with transaction.atomic():
        tournament = locked(tournament_id)
        entrant = Entrant.objects.filter(
            tournament=tournament, user=user, withdrawn=None, removed=False
        ).first()
        if entrant is None:
            raise TournamentError("not_entered", _("You are not in this event."))
        if not tournament.is_open:
            raise TournamentError("event_over", _("This event is over."))
        leave(tournament, entrant)


def leave(tournament: Tournament, entrant: Entrant, removed: bool = False) -> None:
    if tournament.status == Tournament.Status.UPCOMING and not removed:
        entrant.delete()
    else:
        entrant.withdrawn = entrant.withdrawn or timezone.now()
        entrant.removed = removed
        entrant.save(update_fields=["withdrawn", "removed"])
    live.changed_on_commit(tournament.pk, wake=True)


def add_computer(tournament_id: int, user, level: str) -> Entrant:  # noqa: ANN001
    """The creator (or an admin) adds a computer level as a player, before the start."""
    try:
        check_level(level)
    except ServiceError as exc:
        raise TournamentError("bad_level", exc.message) from None
    with transaction.atomic():
        tournament = locked(tournament_id)
        check_manager(tournament, user)
        if tournament.status != Tournament.Status.UPCOMING:
            raise TournamentError("already_started", _("Computers are added before the start."))
        if Entrant.objects.filter(tournament=tournament, computer=level).exists():
            text = _("The %(level)s level is in already.")
            raise TournamentError("already_entered", text % {"level": words.level_name(level)})
        entrant = Entrant.objects.create(
            tournament=tournament, computer=level, name=words.stored_computer_name(level)
        )
        live.changed_on_commit(tournament.pk, wake=True)
    return entrant


def remove(tournament_id: int, user, entrant_id: int) -> None:  # noqa: ANN001
    """An admin (or the creator) takes a player out: before the start the entry goes; after
    it, as a withdrawal, marked removed (and they may not enter again)."""
    with transaction.atomic():
        tournament = locked(tournament_id)
        check_manager(tournament, user)
        entrant = Entrant.objects.filter(tournament=tournament, pk=entrant_id).first()
        if entrant is None:
            raise TournamentError("not_entered", _("That player is not in this event."))
        if tournament.status == Tournament.Status.UPCOMING and entrant.computer:
            entrant.delete()
            live.changed_on_commit(tournament.pk, wake=True)
            return
        leave(tournament, entrant, removed=True)


def entrant_of(tournament: Tournament, user) -> Entrant | None:  # noqa: ANN001
    if user is None or not user.is_authenticated:
        return None
    return Entrant.objects.filter(tournament=tournament, user=user).first()
