"""The battlefield in the database: games, their moves and their numbered events."""

from __future__ import annotations

import secrets
import string
from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone

RED, BLUE, OBSERVER = 0, 1, 2
ID_ALPHABET = string.ascii_lowercase + string.digits
ID_LENGTH = 10


def new_public_id() -> str:
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


class Game(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting"
        SETUP = "setup"
        PLAYING = "playing"
        FINISHED = "finished"
        ABORTED = "aborted"

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    variant = models.CharField(max_length=16, default="classic")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    private = models.BooleanField(default=False)

    red_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    red_session = models.CharField(max_length=40, blank=True, default="")
    red_name = models.CharField(max_length=150, blank=True, default="")
    blue_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    blue_session = models.CharField(max_length=40, blank=True, default="")
    blue_name = models.CharField(max_length=150, blank=True, default="")
    # The level of the computer in the seat ("" for a person, or nobody):
    # games/services/computer.py.
    red_computer = models.CharField(max_length=16, blank=True, default="")
    blue_computer = models.CharField(max_length=16, blank=True, default="")

    state = models.JSONField(default=dict)
    version = models.PositiveIntegerField(default=0)
    ply = models.PositiveIntegerField(default=0)
    draw_offer = models.PositiveSmallIntegerField(null=True, blank=True)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    termination = models.CharField(max_length=32, blank=True, default="")

    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    # For games read from a record file: the SHA-256 of its bytes (empty for games played here).
    source_sha256 = models.CharField(max_length=64, blank=True, default="", db_index=True)

    # The clock (games/domain/clocks.py). Untimed: clock_base_ms is None. Remaining time per side in
    # ms as of turn_started for the side to move, as it stands for the other side; `deadline`
    # is when the running clock (or, in setup, the setup time) runs out, None when none runs.
    clock_base_ms = models.PositiveIntegerField(null=True, blank=True)
    clock_increment_ms = models.PositiveIntegerField(default=0)
    red_clock_ms = models.BigIntegerField(null=True, blank=True)
    blue_clock_ms = models.BigIntegerField(null=True, blank=True)
    turn_started = models.DateTimeField(null=True, blank=True)  # this turn, or the setup, began
    # When both seats were taken (the setup began): absence never counts from before it.
    setup_started = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # Abandonment: when the seat's last socket went away (None: connected, or never left).
    red_left = models.DateTimeField(null=True, blank=True)
    blue_left = models.DateTimeField(null=True, blank=True)
    # Ratings (players/ratings.py): created as rated; who may join, by their rating.
    rated = models.BooleanField(default=False)
    rating_min = models.PositiveIntegerField(null=True, blank=True)
    rating_max = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "private"])]

    def __str__(self) -> str:
        return f"{self.public_id} ({self.variant}, {self.status})"

    def seat_name(self, color: int) -> str:
        return self.red_name if color == RED else self.blue_name

    def seat_taken(self, color: int) -> bool:
        return bool(self.seat_name(color))

    def seat_is_guest(self, color: int) -> bool:
        """A person without an account (not the computer) holds the seat."""
        user_id = self.red_user_id if color == RED else self.blue_user_id
        return user_id is None and not self.seat_computer(color)

    def seat_computer(self, color: int) -> str:
        return self.red_computer if color == RED else self.blue_computer

    @property
    def is_active(self) -> bool:
        return self.status not in (self.Status.FINISHED, self.Status.ABORTED)

    @property
    def is_timed(self) -> bool:
        return self.clock_base_ms is not None

    def clock_ms(self, color: int) -> int:
        return (self.red_clock_ms if color == RED else self.blue_clock_ms) or 0

    def set_clock_ms(self, color: int, value: int) -> None:
        setattr(self, "red_clock_ms" if color == RED else "blue_clock_ms", value)

    def left_at(self, color: int) -> datetime | None:
        return self.red_left if color == RED else self.blue_left

    def set_left(self, color: int, value: datetime | None) -> None:
        setattr(self, left_field(color), value)


def left_field(color: int) -> str:
    return "red_left" if color == RED else "blue_left"


class Move(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    from_square = models.PositiveSmallIntegerField()
    to_square = models.PositiveSmallIntegerField()
    notation = models.CharField(max_length=16, blank=True, default="")
    color = models.PositiveSmallIntegerField()
    attacker_rank = models.PositiveSmallIntegerField(null=True, blank=True)
    defender_rank = models.PositiveSmallIntegerField(null=True, blank=True)
    battle_result = models.CharField(max_length=16, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "ply"], name="unique_move_ply")]
        ordering = ["game", "ply"]

    def __str__(self) -> str:
        return f"{self.game.public_id} ply {self.ply}: {self.notation}"


class GameEvent(models.Model):
    """One numbered event, with the payload each role may see (never a hidden rank)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=32)
    red_payload = models.JSONField()
    blue_payload = models.JSONField()
    observer_payload = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="unique_event_version")
        ]
        ordering = ["game", "version"]

    def payload_for(self, role: int) -> dict:
        if role == RED:
            return self.red_payload
        if role == BLUE:
            return self.blue_payload
        return self.observer_payload


class Presence(models.Model):
    """One connected socket of a game, so the lobby can count spectators.

    `instance` is the server process holding the socket; it re-stamps `seen` on its rows
    every heartbeat, so rows of a process that died stop counting (games/transport/presence.py).
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="presences")
    channel_name = models.CharField(max_length=200, unique=True)
    role = models.PositiveSmallIntegerField()
    created = models.DateTimeField(auto_now_add=True)
    instance = models.CharField(max_length=32, blank=True, default="", db_index=True)
    seen = models.DateTimeField(default=timezone.now, db_index=True)


MAX_SETUP_NAME_LENGTH = 60


class SavedSetup(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="saved_setups"
    )
    variant = models.CharField(max_length=16)
    name = models.CharField(max_length=MAX_SETUP_NAME_LENGTH)
    layout = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(fields=["user", "variant", "name"], name="unique_setup_name")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.variant})"

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "name": self.name,
            "layout": self.layout,
            "created": self.created.isoformat(),
        }


from .chat_message import ChatMessage  # noqa: E402,F401
