"""Mutes and bans: who is under one now, and carrying one out (the log row, the sessions
ended, the live sockets told or closed at once through the channel layer)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.domain.errors import ServiceError
from games.domain.identity import Identity, identity_token

from .models import Report, Sanction

logger = logging.getLogger(__name__)
Kind = Sanction.Kind
CLOSE_BANNED = 4003  # a site ban closes the player's sockets (docs/protocol.md)


@dataclass(frozen=True)
class Target:
    user_id: int | None
    session_key: str
    name: str

    @property
    def identity(self) -> Identity:
        return Identity(self.user_id, self.session_key or None, self.name)


def target_of_report(report: Report) -> Target:
    return Target(report.target_user_id, report.target_session, report.target_name)


def person_group(ident: Identity) -> str | None:
    """The channel-layer group of every socket of this person (games/transport/consumers.py)."""
    token = identity_token(ident)
    return f"person.{token}" if token else None


def aimed_at(ident: Identity) -> Q:
    if ident.user_id is not None:
        return Q(target_user_id=ident.user_id)
    return Q(target_user=None, target_session=ident.session_key or "-")


def in_force() -> Q:
    return (Q(until__isnull=True) | Q(until__gt=timezone.now())) & Q(ended__isnull=True)


def running(ident: Identity | None, kind: str) -> Sanction | None:
    """The sanction of `kind` in force on this identity now, the latest first."""
    if ident is None:
        return None
    return Sanction.objects.filter(aimed_at(ident), in_force(), kind=kind).first()


def for_a_page(ident: Identity) -> tuple[Sanction | None, list[Sanction]]:
    """In one query: the site ban in force on this identity (or None), and the warnings it
    has not been shown on a page yet (marked shown now)."""
    ban_or_warning = (Q(kind=Kind.SITE_BAN) & in_force()) | Q(kind=Kind.WARN, seen__isnull=True)
    found = list(Sanction.objects.filter(aimed_at(ident), ban_or_warning))
    ban = next((s for s in found if s.kind == Kind.SITE_BAN), None)
    warnings = [s for s in found if s.kind == Kind.WARN]
    if warnings:
        Sanction.objects.filter(pk__in=[w.pk for w in warnings]).update(seen=timezone.now())
    return ban, warnings


def warning_message(sanction: Sanction) -> str:
    return _("A moderator warns you: %(reason)s") % {"reason": sanction.reason}


def until_text(sanction: Sanction) -> str:
    if sanction.until is None:
        return _("until a moderator lifts it")
    return _("until %(when)s UTC") % {"when": f"{sanction.until:%Y-%m-%d %H:%M}"}


def mute_message(sanction: Sanction) -> str:
    return _("You are muted in chat %(until)s. Reason: %(reason)s") % {
        "until": until_text(sanction),
        "reason": sanction.reason,
    }


def ban_message(sanction: Sanction) -> str:
    return _("You are banned from this site %(until)s. Reason: %(reason)s") % {
        "until": until_text(sanction),
        "reason": sanction.reason,
    }


def check_can_chat(ident: Identity | None) -> None:
    """ServiceError `muted` (or `banned`) when this identity may not chat now."""
    check_not_banned(ident)
    mute = running(ident, Kind.MUTE)
    if mute is not None:
        raise ServiceError("muted", mute_message(mute))


def check_not_banned(ident: Identity | None) -> None:
    """ServiceError `banned` when this identity is banned from the site now."""
    if ident is None or ident.computer:
        return
    ban = running(ident, Kind.SITE_BAN)
    if ban is not None:
        raise ServiceError("banned", ban_message(ban))


# ---------------------------------------------------------------- acting


def act(
    kind: str,
    target: Target,
    reason: str,
    moderator: object,
    minutes: int | None = None,
    report: Report | None = None,
) -> Sanction:
    """Carry out one moderator's action and log it; the target's live sockets hear of it."""
    reason = reason.strip()
    if not reason:
        raise ValueError("a moderator's action needs a reason")
    now = timezone.now()
    until = now + timedelta(minutes=minutes) if minutes else None
    if kind == Kind.MUTE and until is None:
        until = now + timedelta(hours=1)
    with transaction.atomic():
        sanction = Sanction.objects.create(
            kind=kind, target_user_id=target.user_id, target_session=target.session_key,
            target_name=target.name, reason=reason, until=until, moderator=moderator,
            report=report,
        )  # fmt: skip
        if kind == Kind.RATED_BAN and target.user_id is not None:
            set_rated_ban(target.user_id, True, reason)
        if kind == Kind.LIFT:
            lift(target)
        if kind == Kind.SITE_BAN:
            end_sessions(target)
        if report is not None:
            Report.objects.filter(pk=report.pk).update(status=Report.Status.CLOSED)
        transaction.on_commit(lambda: tell_sockets(target, sanction))
    return sanction


def set_rated_ban(user_id: int, banned: bool, note: str) -> None:
    from players.models import PlayerStatus  # players imports games

    PlayerStatus.objects.update_or_create(
        user_id=user_id, defaults={"banned_from_rated": banned, "note": note[:200]}
    )


def lift(target: Target) -> None:
    who = (
        Q(target_user_id=target.user_id)
        if target.user_id is not None
        else Q(target_user=None, target_session=target.session_key)
    )
    kinds = [Kind.MUTE, Kind.SITE_BAN, Kind.RATED_BAN]
    Sanction.objects.filter(who, kind__in=kinds, ended__isnull=True).update(ended=timezone.now())
    if target.user_id is not None:
        set_rated_ban(target.user_id, False, "lifted")


def end_sessions(target: Target) -> int:
    """Log the person out everywhere: every session of the account, or the guest's one."""
    if target.user_id is None:
        return Session.objects.filter(session_key=target.session_key).delete()[0]
    ended = 0
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if str(session.get_decoded().get("_auth_user_id")) == str(target.user_id):
            session.delete()
            ended += 1
    return ended


def frame_of(sanction: Sanction) -> dict:
    """The `moderation` frame the target's sockets get (docs/protocol.md): in the site's
    default language, since the moderator's request may speak another."""
    with translation.override(settings.LANGUAGE_CODE):
        return frame_in_language(sanction)


def frame_in_language(sanction: Sanction) -> dict:
    messages = {
        Kind.WARN: warning_message(sanction),
        Kind.MUTE: mute_message(sanction),
        Kind.SITE_BAN: ban_message(sanction),
        Kind.RATED_BAN: _("You are banned from rated play. Reason: %(reason)s")
        % {"reason": sanction.reason},
        Kind.LIFT: _("A moderator lifted your mutes and bans."),
    }
    return {
        "type": "moderation",
        "action": sanction.kind,
        "message": messages[Kind(sanction.kind)],
        "reason": sanction.reason,  # (the page words the notice in its reader's language)
        "until": sanction.until.isoformat() if sanction.until else None,
    }


def tell_sockets(target: Target, sanction: Sanction) -> None:
    group = person_group(target.identity)
    layer = get_channel_layer()
    if group is None or layer is None:
        return
    event = {"type": "moderation.action", "frame": frame_of(sanction)}
    event["close"] = CLOSE_BANNED if sanction.kind == Kind.SITE_BAN else None
    try:
        async_to_sync(layer.group_send)(group, event)
    except Exception as exc:  # the layer is away: the ban still holds on the next connect
        logger.warning("could not reach %s's sockets: %r", target.name, exc)
