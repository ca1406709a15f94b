"""A bot's socket on the real ASGI app: the token makes it the bot's seat, its illegal
actions get a person's errors. (Wrong and revoked tokens: test_bot_client.py, on daphne.)"""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from botapi.tokens import make_bot
from games import services
from games.domain.models import OBSERVER
from stratego_site.asgi import application
from tests.server.conftest import (  # noqa: F401
    ORIGIN,
    adb,
    connect,
    fresh_channel_layer,
    make_guest,
    no_heartbeat_after_the_test,
    receive,
)

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_bot_socket_plays_as_its_account_and_gets_a_persons_errors():
    """The token makes the socket the bot's seat; an illegal action is refused with the
    very error a person's socket gets."""
    bot, raw = await adb(make_bot)("errbot")
    person = await adb(make_guest)("perr")
    game = await adb(services.create_game)(person, "mini", 1)
    path = f"/ws/games/{game.public_id}/"
    headers = [ORIGIN, (b"authorization", f"Bearer {raw}".encode())]
    bot_socket = WebsocketCommunicator(application, path, headers=headers)
    assert (await bot_socket.connect())[0]
    assert (await receive(bot_socket))["role"] == OBSERVER
    await bot_socket.send_json_to({"type": "join", "seat": None})
    seated = await receive(bot_socket)
    assert seated["game"]["seats"][0] == {"name": "errbot", "guest": False, "bot": True}
    human = await connect(path, person)
    await receive(human)
    errors = []
    for sock in (bot_socket, human):  # a move in the setup phase, then one off the board
        for message in ({"type": "move", "from": 0, "to": 5}, {"type": "place", "square": 99,
                                                                "rank": 12}):  # fmt: skip
            await sock.send_json_to(message)
            errors.append(await next_error(sock))
    assert errors[:2] == errors[2:] and all(e["code"] for e in errors)
    await bot_socket.disconnect()
    await human.disconnect()


async def next_error(sock) -> dict:
    while True:
        frame = await receive(sock)
        if frame["type"] == "error":
            return {k: frame[k] for k in ("code", "message", "request")}
