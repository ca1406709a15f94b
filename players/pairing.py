"""Quick pairing ("Play now"): the same variant and clock, the nearest rating, within a
range that widens the longer both have waited.

A seek waits on a page that polls its status; every poll (and every new seek) tries to pair
under a lock on the open seeks of that variant and clock, so two polls at once never pair
one seek twice. The game is rated when both are accounts allowed to play rated.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import services
from games.domain import options
from games.domain.errors import ServiceError
from games.domain.identity import Identity, identity_from
from games.services.rate_limits import limited

from . import ratings
from .models import Seek

START_RANGE = 100  # rating points either side at first
WIDEN_BY = 100  # more, every WIDEN_EVERY seconds of waiting
WIDEN_EVERY = 10
MAX_RANGE = 1000
STALE_SECONDS = 15  # a seek whose page has not polled for this long is not paired
FORGET_SECONDS = 3600  # seeks (paired or not) untouched this long are deleted by the next one


def rating_range(seek: Seek, at: datetime) -> int:
    waited = max((at - seek.created).total_seconds(), 0)
    return min(START_RANGE + WIDEN_BY * int(waited // WIDEN_EVERY), MAX_RANGE)


def identity(seek: Seek) -> Identity:
    return Identity(user_id=seek.user_id, session_key=seek.session_key or None, name=seek.name)


def same_person(a: Seek, b: Seek) -> bool:
    if a.user_id or b.user_id:
        return a.user_id == b.user_id
    return a.session_key == b.session_key


def seek(ident: Identity, variant: str, time_control: str) -> Seek:
    """A new seek (the identity's older ones are withdrawn), paired at once if it can."""
    if variant not in ratings.VARIANTS:
        raise ServiceError("bad_variant", _("Unknown variant %(variant)r.") % {"variant": variant})
    control = options.time_control(time_control)  # refuses an unknown one
    at = timezone.now()
    Seek.objects.filter(seen__lt=at - timedelta(seconds=FORGET_SECONDS)).delete()
    if ident.user_id:
        Seek.objects.filter(user_id=ident.user_id).delete()
    else:
        Seek.objects.filter(session_key=ident.session_key or "", user=None).delete()
    new = Seek.objects.create(
        user_id=ident.user_id,
        session_key=ident.session_key or "",
        name=ident.name,
        variant=variant,
        time_control=control.id if control else "",
        rating=ratings.rating_of(ident, variant),
        created=at,
        seen=at,
    )
    pair(new.pk)
    new.refresh_from_db()
    return new


def pair(seek_id: int) -> int | None:
    """Try to pair seek `seek_id`: the pk of its game, or None while it waits."""
    at = timezone.now()
    with transaction.atomic():
        first = Seek.objects.filter(pk=seek_id).first()
        if first is None:
            return None
        open_seeks = list(
            Seek.objects.select_for_update()
            .filter(variant=first.variant, time_control=first.time_control)
            .filter(game=None, seen__gte=at - timedelta(seconds=STALE_SECONDS))
            .order_by("id")
        )
        me = Seek.objects.select_for_update().get(pk=seek_id)
        if me.game_id is not None:
            return me.game_id
        me.seen = at
        me.save(update_fields=["seen"])
        other = nearest(me, open_seeks, at)
        if other is None:
            return None
        return start_game(me, other)


def nearest(me: Seek, seeks: list[Seek], at: datetime) -> Seek | None:
    fits = [
        s
        for s in seeks
        if s.pk != me.pk
        and not same_person(s, me)
        and abs(s.rating - me.rating) <= min(rating_range(s, at), rating_range(me, at))
    ]
    return min(fits, key=lambda s: (abs(s.rating - me.rating), s.created), default=None)


def start_game(me: Seek, other: Seek) -> int:
    """The one who waited longer creates (colour by lot), the other joins."""
    first, second = sorted((me, other), key=lambda s: (s.created, s.pk))
    rated = both_rated(first, second)
    game = services.create_game(
        identity(first),
        variant=first.variant,
        seat=None,
        time_control=first.time_control or None,
        rated=rated,
    )
    services.join_game(game.public_id, identity(second))
    Seek.objects.filter(pk__in=[first.pk, second.pk]).update(game=game)
    return game.pk


def both_rated(*seeks: Seek) -> bool:
    try:
        for s in seeks:
            ratings.check_rated_seat(identity(s))
    except ServiceError:
        return False
    return True


# ---------------------------------------------------------------- pages


def own_seek(request: HttpRequest, seek_id: int) -> Seek:
    ident = identity_from(request.user, request.session)
    found = Seek.objects.filter(pk=seek_id).select_related("game").first()
    if ident is None or found is None or not same_person(found, as_seek(ident)):
        raise Http404("No such seek.")
    return found


def as_seek(ident: Identity) -> Seek:
    return Seek(user_id=ident.user_id, session_key=ident.session_key or "")


@require_POST
@limited("create_game")
def play_now(request: HttpRequest) -> HttpResponse:
    ident = identity_from(request.user, request.session)
    if ident is None:
        messages.error(request, _("Choose a nickname or log in first."))
        return redirect("lobby:index")
    try:
        mine = seek(
            ident, request.POST.get("variant", "classic"), request.POST.get("time_control", "")
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("lobby:index")
    if mine.game_id:
        return redirect("games:detail", game_id=mine.game.public_id)
    context = {"seek": mine, "range": rating_range(mine, timezone.now()), "stale": STALE_SECONDS}
    return render(request, "players/seek.html", context)


def seek_status(request: HttpRequest, seek_id: int) -> JsonResponse:
    mine = own_seek(request, seek_id)
    game_pk = pair(mine.pk)
    if game_pk is None:
        return JsonResponse({"game": None, "range": rating_range(mine, timezone.now())})
    mine.refresh_from_db()
    return JsonResponse({"game": reverse("games:detail", args=[mine.game.public_id])})


@require_POST
def cancel(request: HttpRequest, seek_id: int) -> HttpResponse:
    own_seek(request, seek_id).delete()
    return redirect("lobby:index")
