"""Events in the database: the event, its entrants, and its pairings (each one a normal game
of games.Game, or a bye). Everything a restarted server needs to go on is here."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


def new_invite_code() -> str:
    return secrets.token_urlsafe(9)


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("Round-robin")
        ARENA = "arena", _("Arena")

    class Status(models.TextChoices):
        UPCOMING = "upcoming", _("Upcoming")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(max_length=80)
    format = models.CharField(max_length=16, choices=Format.choices)
    variant = models.CharField(max_length=16, default="classic")
    time_control = models.CharField(max_length=16, blank=True, default="")  # "" untimed
    rated = models.BooleanField(default=True)
    starts_at = models.DateTimeField(db_index=True)
    rounds = models.PositiveSmallIntegerField(default=0)  # Swiss; round-robin: from the count
    double = models.BooleanField(default=False)  # round-robin twice, colours swapped
    minutes = models.PositiveSmallIntegerField(default=0)  # arena: its length
    rating_min = models.PositiveIntegerField(null=True, blank=True)
    rating_max = models.PositiveIntegerField(null=True, blank=True)
    private = models.BooleanField(default=False)  # by invitation link only
    invite_code = models.CharField(max_length=16, default=new_invite_code, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    featured = models.BooleanField(default=False)
    # How long a player may be away from a game of a round before it is forfeited, and the
    # pause between a round's last result and the next round.
    grace_seconds = models.PositiveIntegerField(default=60)
    round_pause_seconds = models.PositiveIntegerField(default=30)

    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.UPCOMING, db_index=True
    )
    current_round = models.PositiveSmallIntegerField(default=0)
    next_round_at = models.DateTimeField(null=True, blank=True)  # when the next round starts
    ends_at = models.DateTimeField(null=True, blank=True)  # arena: the end of the window
    finished_at = models.DateTimeField(null=True, blank=True)
    cancel_reason = models.CharField(max_length=200, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_format_display()}, {self.status})"

    @property
    def is_open(self) -> bool:
        return self.status in (self.Status.UPCOMING, self.Status.RUNNING)


class Entrant(models.Model):
    """An account (a person or a bot) or a computer level in one event."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="tournament_entries",
    )
    computer = models.CharField(max_length=16, blank=True, default="")
    name = models.CharField(max_length=150)
    joined = models.DateTimeField(auto_now_add=True)
    withdrawn = models.DateTimeField(null=True, blank=True)
    removed = models.BooleanField(default=False)  # by an admin
    rating_start = models.FloatField(null=True, blank=True)  # as the event began (or joined)
    rating_end = models.FloatField(null=True, blank=True)  # as it ended
    place = models.PositiveIntegerField(null=True, blank=True)  # final
    points = models.FloatField(default=0)  # final

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], condition=Q(user__isnull=False), name="one_entry"
            ),
            models.UniqueConstraint(
                fields=["tournament", "computer"],
                condition=~Q(computer=""),
                name="one_entry_per_level",
            ),
        ]
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.name} in {self.tournament_id}"

    @property
    def active(self) -> bool:
        return self.withdrawn is None and not self.removed


class Pairing(models.Model):
    """One board of one round (an arena numbers its pairings in order instead). `blue` None
    is a bye. The scores are set when the game ends; a game never created (a seat refused)
    or aborted is 0 for both."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    round = models.PositiveSmallIntegerField()
    red = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    blue = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="+")  # fmt: skip
    game = models.OneToOneField(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="pairing"
    )
    red_score = models.FloatField(null=True, blank=True)
    blue_score = models.FloatField(null=True, blank=True)
    note = models.CharField(max_length=32, blank=True, default="")  # "absent", "bye", ...
    red_seen = models.BooleanField(default=False)  # the seat connected to its game once
    blue_seen = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "id"]
        indexes = [models.Index(fields=["tournament", "round"])]

    def __str__(self) -> str:
        blue = self.blue.name if self.blue_id else "bye"
        return f"round {self.round}: {self.red.name} – {blue}"

    @property
    def played(self) -> bool:
        return self.red_score is not None
