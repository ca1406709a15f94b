"""The stored chat message (games/services/chat.py posts and reads them); kept with its game."""

from __future__ import annotations

from django.db import models

PLAYERS, SPECTATORS = "players", "spectators"
ROOMS = (PLAYERS, SPECTATORS)
MAX_CHARS = 300


class ChatMessage(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat_messages")
    version = models.PositiveIntegerField()  # the game event that carried it
    room = models.CharField(max_length=16, choices=[(r, r) for r in ROOMS])
    role = models.PositiveSmallIntegerField()  # the author's: 0 Red, 1 Blue, 2 a spectator
    author = models.CharField(max_length=150)
    author_key = models.CharField(max_length=64, db_index=True)  # user id or session, for limits
    text = models.CharField(max_length=MAX_CHARS)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "version"]

    def __str__(self) -> str:
        return f"{self.game_id} {self.room} {self.author}: {self.text[:40]}"

    def public(self) -> dict:
        return {
            "room": self.room,
            "role": self.role,
            "name": self.author,
            "guest": self.author_key.startswith("s"),  # (chat.author_key: "u<id>", "s<session>")
            "text": self.text,
        }
