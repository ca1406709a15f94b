"""Bot accounts and their API tokens (Lichess's Bot API is the model).

A token is shown once, when it is made; only its SHA-256 is stored, so a database leak
gives no usable token. A token can be revoked; a revoked token, or one of an account that
is no longer a bot or no longer active, opens nothing."""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

TOKEN_PREFIX = "stb_"


def hash_token(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


class BotAccount(models.Model):
    """Marks a user account as a program: it plays through the API and shows as BOT."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot_account"
    )
    description = models.CharField(max_length=200, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"BOT {self.user.get_username()}"


class ApiToken(models.Model):
    bot = models.ForeignKey(BotAccount, on_delete=models.CASCADE, related_name="tokens")
    label = models.CharField(max_length=100, blank=True, default="")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    hint = models.CharField(max_length=12, editable=False)  # the first characters, to tell apart
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True, editable=False)
    revoked = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        state = "revoked" if self.revoked else "active"
        return f"{self.hint}… ({self.bot.user.get_username()}, {state})"

    @classmethod
    def issue(cls, bot: BotAccount, label: str = "") -> tuple[ApiToken, str]:
        """A new token: the row, and the raw token (never stored: show it once)."""
        raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = cls.objects.create(bot=bot, label=label, digest=hash_token(raw), hint=raw[:10])
        return token, raw

    def revoke(self) -> None:
        if self.revoked is None:
            self.revoked = timezone.now()
            self.save(update_fields=["revoked"])
