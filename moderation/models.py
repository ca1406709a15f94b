"""Reports from players, and what moderators did about them (each action one row: who did
what to whom, why, and until when)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

# The reasons a report gives, said in the page's language.
REASONS = [
    ("abuse", gettext_lazy("Abusive or hateful language")),
    ("spam", gettext_lazy("Spam or flooding")),
    ("impersonation", gettext_lazy("Pretends to be someone else")),
    ("cheating", gettext_lazy("Cheating or stalling on purpose")),
    ("other", gettext_lazy("Something else")),
]
MAX_DETAILS = 500


class Report(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        CLOSED = "closed"

    reporter_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reporter_session = models.CharField(max_length=40, blank=True, default="")
    reporter_name = models.CharField(max_length=150)
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    target_session = models.CharField(max_length=40, blank=True, default="")
    target_name = models.CharField(max_length=150)
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    message = models.ForeignKey(
        "games.ChatMessage", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.CharField(max_length=16, choices=REASONS)
    details = models.CharField(max_length=MAX_DETAILS, blank=True, default="")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["status", "-created"]
        indexes = [models.Index(fields=["status", "-created"])]

    def __str__(self) -> str:
        return f"{self.target_name} ({self.get_reason_display()}) by {self.reporter_name}"


class Sanction(models.Model):
    """One moderator's action. warn: a message; mute: no chat until `until`; rated_ban: no
    rated play; site_ban: sessions ended, sockets closed, nothing allowed until `until` (None:
    for good); lift: the target's running mutes and bans end (`ended` set on them)."""

    class Kind(models.TextChoices):
        WARN = "warn"
        MUTE = "mute"
        RATED_BAN = "rated_ban", "ban from rated play"
        SITE_BAN = "site_ban", "ban from the site"
        LIFT = "lift", "lift mutes and bans"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    target_session = models.CharField(max_length=40, blank=True, default="", db_index=True)
    target_name = models.CharField(max_length=150)
    reason = models.CharField(max_length=500)
    until = models.DateTimeField(null=True, blank=True)
    ended = models.DateTimeField(null=True, blank=True)  # lifted early
    seen = models.DateTimeField(null=True, blank=True)  # a warning shown on a page
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    report = models.ForeignKey(Report, null=True, blank=True, on_delete=models.SET_NULL)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created"]
        permissions = [("moderate", "Can warn, mute and ban players")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.target_name}"
