"""The baseline: a bare ASGI websocket app under daphne that sends back every text frame.
What a move costs beyond this is the cost of our stack (Django, Channels, Redis, PostgreSQL)."""

from __future__ import annotations


async def application(scope, receive, send) -> None:
    if scope["type"] != "websocket":
        return
    while True:
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
        elif message["type"] == "websocket.receive":
            await send({"type": "websocket.send", "text": message.get("text") or ""})
        else:  # websocket.disconnect
            return
