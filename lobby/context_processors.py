from django.http import HttpRequest

from games.domain.identity import NICKNAME_KEY


def identity(request: HttpRequest) -> dict:
    """`player_name` and `is_guest` for every template: who is playing in this browser."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return {"player_name": user.get_username(), "is_guest": False}
    session = getattr(request, "session", None)
    name = session.get(NICKNAME_KEY) if session is not None else None
    return {"player_name": name or "", "is_guest": bool(name)}
