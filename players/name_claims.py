"""Who holds a name: every account (its key, kept by a signal on save) and every guest
signed on in a live browser session. players/names.py says when two names clash."""

from __future__ import annotations

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import IntegrityError, models, transaction
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone

from .names import is_reserved, name_key


class AccountName(models.Model):
    """The key of an account's username (players/names.py name_key)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="name_claim"
    )
    key = models.CharField(max_length=300, db_index=True)


class GuestName(models.Model):
    """A guest's nickname, held while the browser session that chose it lives."""

    key = models.CharField(max_length=300, unique=True)
    name = models.CharField(max_length=150)
    session_key = models.CharField(max_length=40, db_index=True)
    claimed = models.DateTimeField(default=timezone.now)


class NameTaken(Exception):
    """The name clashes with an account, a live guest or a reserved word: `message` says so."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def session_live(session_key: str) -> bool:
    return Session.objects.filter(session_key=session_key, expire_date__gt=timezone.now()).exists()


def check_free(name: str, session_key: str | None = None, user_id: int | None = None) -> None:
    """NameTaken unless `name` is free for this guest session or this account."""
    if is_reserved(name):
        raise NameTaken(f"{name!r} is reserved: choose another name.")
    key = name_key(name)
    if AccountName.objects.filter(key=key).exclude(user_id=user_id).exists():
        raise NameTaken(f"{name!r} is an account's name (or looks like one): choose another.")
    guest = GuestName.objects.filter(key=key).first()
    if guest and guest.session_key != session_key and session_live(guest.session_key):
        raise NameTaken(f"A guest is playing as {guest.name!r}: choose another name.")


def claim_guest_name(name: str, session_key: str) -> None:
    """Sign the guest session on as `name` (its earlier nickname is freed), or NameTaken."""
    check_free(name, session_key=session_key)
    key = name_key(name)
    try:
        with transaction.atomic():
            GuestName.objects.filter(session_key=session_key).exclude(key=key).delete()
            GuestName.objects.filter(key=key).exclude(session_key=session_key).delete()
            GuestName.objects.update_or_create(
                key=key, defaults={"name": name, "session_key": session_key,
                                   "claimed": timezone.now()},
            )  # fmt: skip
    except IntegrityError:  # another browser claimed it at the same instant
        raise NameTaken(f"A guest is playing as {name!r}: choose another name.") from None


def release_guest_names(session_key: str | None) -> None:
    if session_key:
        GuestName.objects.filter(session_key=session_key).delete()


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def keep_account_key(sender: type, instance: models.Model, **kwargs: object) -> None:
    """Every account's key, however it was made (sign-up, the admin, a bot, a command)."""
    AccountName.objects.update_or_create(
        user_id=instance.pk, defaults={"key": name_key(instance.get_username())}
    )
