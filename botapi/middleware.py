"""Token authentication for websockets: `Authorization: Bearer <token>`.

A socket that presents a token plays as that bot account (scope["user"]); a socket whose
token is wrong or revoked is refused before it opens (close 4401). A socket without a token
goes on as before (session and login)."""

from __future__ import annotations

from channels.db import database_sync_to_async

from .tokens import user_for_token

CLOSE_BAD_TOKEN = 4401


def bearer_token(scope: dict) -> str | None:
    for name, value in scope.get("headers", ()):
        if name.lower() == b"authorization":
            text = value.decode("latin-1").strip()
            if text.lower().startswith("bearer "):
                return text[7:].strip()
            return ""  # some other scheme: not a token this server issued
    return None


class TokenAuthMiddleware:
    def __init__(self, inner) -> None:  # (an ASGI application)
        self.inner = inner

    async def __call__(self, scope, receive, send):  # (ASGI)
        if scope.get("type") == "websocket":
            raw = bearer_token(scope)
            if raw is not None:
                user = await database_sync_to_async(user_for_token)(raw)
                if user is None:
                    await receive()  # websocket.connect
                    await send({"type": "websocket.close", "code": CLOSE_BAD_TOKEN})
                    return None
                scope = {**scope, "user": user, "bot": True}
        return await self.inner(scope, receive, send)
