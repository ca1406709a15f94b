"""From a raw API token to the bot's user, and making bot accounts."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from .models import ApiToken, BotAccount, hash_token

MAX_TOKEN_LENGTH = 200


def user_for_token(raw: str):  # (a User or None)
    """The active bot user this token opens, or None (unknown, revoked, not a bot)."""
    if not raw or len(raw) > MAX_TOKEN_LENGTH:
        return None
    token = (
        ApiToken.objects.select_related("bot__user")
        .filter(digest=hash_token(raw), revoked__isnull=True)
        .first()
    )
    if token is None or not token.bot.user.is_active:
        return None
    ApiToken.objects.filter(pk=token.pk).update(last_used=timezone.now())
    return token.bot.user


def make_bot(username: str, label: str = "") -> tuple[BotAccount, str]:
    """Mark `username` as a bot (creating the account, without a usable password, if it does
    not exist) and issue it a token. Returns the account and the raw token."""
    User = get_user_model()
    with transaction.atomic():
        user, created = User.objects.get_or_create(username=username)
        if created:
            user.set_unusable_password()
            user.save()
        bot, _ = BotAccount.objects.get_or_create(user=user)
        _, raw = ApiToken.issue(bot, label)
    return bot, raw


def is_bot_name(names: list[str]) -> set[str]:
    """Which of these user names belong to bot accounts (one query)."""
    return set(
        BotAccount.objects.filter(user__username__in=names).values_list("user__username", flat=True)
    )
