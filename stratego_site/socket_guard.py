"""A socket whose opening needs the database (the session, the user, a bot's token) while the
database cannot serve: told `unavailable` and closed with 4503 ("try again later") and a
warning line, instead of the traceback daphne logs for an exception that leaves an
application. The consumers answer the same errors once they run (games/transport/consumers.py); this
catches those raised before them, in the authentication middlewares."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from games.domain import error_codes
from games.services.snapshots import dumps
from games.transport import unavailable


class AcceptWatch:
    """The application's `send`, noting whether the socket was accepted. `real_send` is the
    name under which games/transport/limits.py finds the server's own send beneath a wrapper."""

    def __init__(self, send: Callable[[dict], Awaitable[None]]) -> None:
        self.real_send = send
        self.accepted = False

    async def send(self, message: dict) -> None:
        if message.get("type") == "websocket.accept":
            self.accepted = True
        await self.real_send(message)


class DatabaseGuardedSockets:
    def __init__(self, inner) -> None:  # (an ASGI application)
        self.inner = inner

    async def __call__(self, scope, receive, send) -> None:  # (ASGI)
        watch = AcceptWatch(send)
        try:
            await self.inner(scope, receive, watch.send)
        except unavailable.ERRORS as exc:
            unavailable.note("opening a socket", exc)
            if not watch.accepted:
                await send({"type": "websocket.accept"})
            code = error_codes.sent("unavailable")
            frame = {"type": "error", "code": code, "message": unavailable.MESSAGE}
            await send({"type": "websocket.send", "text": dumps(frame)})
            await send({"type": "websocket.close", "code": unavailable.CLOSE_TRY_AGAIN})
