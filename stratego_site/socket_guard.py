"""A socket whose opening needs the database (the session, the user, a bot's token) while the
database cannot serve: closed with 1013 "try again later" and a warning line, instead of the
traceback daphne logs for an exception that leaves an application. The consumers answer the
same errors once they run (games/consumers.py); this catches those raised before them, in the
authentication middlewares."""

from __future__ import annotations

from games import unavailable


class DatabaseGuardedSockets:
    def __init__(self, inner) -> None:  # noqa: ANN001 - an ASGI application
        self.inner = inner

    async def __call__(self, scope, receive, send) -> None:  # noqa: ANN001 - ASGI
        # `send` is passed on as it is: games/limits.py finds daphne's transport through it
        try:
            await self.inner(scope, receive, send)
        except unavailable.ERRORS as exc:
            unavailable.note("opening a socket", exc)
            # before the handshake daphne answers 403; after it, the close frame carries 1013
            await send({"type": "websocket.close", "code": unavailable.CLOSE_TRY_AGAIN})
