"""A guest who signs up keeps the games they played as a guest."""

from __future__ import annotations

from games.domain.models import Game


def adopt_guest_games(session_key: str | None, user) -> int:  # (a User)
    """Move the seats held by the guest session `session_key` to `user` (their name becomes
    the username). The number of seats moved. One UPDATE per colour: a game being played
    waits for its row lock like any other write."""
    if not session_key:
        return 0
    moved = 0
    for prefix in ("red", "blue"):
        moved += Game.objects.filter(
            **{f"{prefix}_user": None, f"{prefix}_session": session_key}
        ).update(
            **{f"{prefix}_user": user, f"{prefix}_session": "", f"{prefix}_name": user.username}
        )
    return moved
