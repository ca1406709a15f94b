"""Ratings per variant (of accounts, and of computer levels), their history, and who may not
play rated games."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.domain import words

from .glicko import DEFAULT_DEVIATION, DEFAULT_RATING, DEFAULT_VOLATILITY, label


class Rating(models.Model):
    """One Glicko-2 rating: of an account (`user`) or of a computer level (`computer`)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="ratings",
    )
    computer = models.CharField(max_length=32, blank=True, default="")  # a level of games/bots
    variant = models.CharField(max_length=16)
    rating = models.FloatField(default=DEFAULT_RATING)
    deviation = models.FloatField(default=DEFAULT_DEVIATION)
    volatility = models.FloatField(default=DEFAULT_VOLATILITY)
    games = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "variant"], condition=Q(user__isnull=False), name="one_user_rating"
            ),
            models.UniqueConstraint(
                fields=["computer", "variant"],
                condition=~Q(computer=""),
                name="one_computer_rating",
            ),
            models.CheckConstraint(
                condition=(Q(user__isnull=False) & Q(computer=""))
                | (Q(user__isnull=True) & ~Q(computer="")),
                name="rating_of_user_or_computer",
            ),
        ]
        indexes = [models.Index(fields=["variant", "-rating"])]

    def __str__(self) -> str:
        return f"{self.name} {self.variant} {self.label}"

    @property
    def name(self) -> str:
        """For people: a computer's name is in the active language (the page's)."""
        if self.user_id:
            return self.user.get_username()
        return words.computer_name(self.computer)

    @property
    def label(self) -> str:
        return label(self.rating, self.deviation)

    @property
    def provisional(self) -> bool:
        return label(self.rating, self.deviation).endswith("?")


class RatingChange(models.Model):
    """What one rated game did to one rating: the chart's points, and the proof that a game
    counted once (one row per rating and game, enforced by the database)."""

    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    score = models.FloatField()  # 1 win, 0.5 draw, 0 loss
    rating_before = models.FloatField()
    deviation_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_after = models.FloatField()
    volatility_after = models.FloatField()
    at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["rating", "game"], name="one_change_per_game")
        ]
        ordering = ["at", "id"]


class PlayerStatus(models.Model):
    """What the admin decides about an account: banned from rated play or not."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_status"
    )
    banned_from_rated = models.BooleanField(default=False)
    note = models.CharField(max_length=200, blank=True, default="")

    def __str__(self) -> str:
        return f"{self.user} ({'banned from rated play' if self.banned_from_rated else 'ok'})"


class Seek(models.Model):
    """One "Play now" request waiting for an opponent (players/pairing.py)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    session_key = models.CharField(max_length=40, blank=True, default="")
    name = models.CharField(max_length=150)
    variant = models.CharField(max_length=16)
    time_control = models.CharField(max_length=16, blank=True, default="")  # "" untimed
    rating = models.FloatField()
    created = models.DateTimeField()
    seen = models.DateTimeField()  # the waiting page's last poll: a closed tab stops pairing
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        indexes = [models.Index(fields=["variant", "time_control", "game"])]


# The names accounts and guests hold live beside their rules; importing them here keeps them
# registered for makemigrations.
from .name_claims import AccountName, GuestName  # noqa: E402,F401
