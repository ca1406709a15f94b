"""A socket's own error frames speak its page's language: the language switch's cookie, else
Accept-Language, else English. The code stays the same in every language."""

from __future__ import annotations

import pytest
from django.conf import settings

from .conftest import CONNECT_TIMEOUT, adb, make_guest, receive, socket
from .test_consumers import new_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

OBSERVERS_EN = "Observers cannot act in this game."
OBSERVERS_NL = "Toeschouwers kunnen in deze partij niets doen."


async def observer(gid: str, header: tuple[bytes, bytes] | None):
    comm = socket(f"/ws/games/{gid}/", await adb(make_guest)())
    if header is not None:
        headers = comm.scope["headers"]
        if header[0] == b"cookie":  # one Cookie header, as a browser sends: with the session's
            header = (
                b"cookie",
                b"; ".join([v for n, v in headers if n == b"cookie"] + [header[1]]),
            )
            headers = [(n, v) for n, v in headers if n != b"cookie"]
        comm.scope["headers"] = [*headers, header]
    connected, _ = await comm.connect(timeout=CONNECT_TIMEOUT)
    assert connected
    assert (await receive(comm))["type"] == "state"
    return comm


COOKIE = (b"cookie", f"{settings.LANGUAGE_COOKIE_NAME}=nl".encode())
ACCEPT_NL = (b"accept-language", b"nl-NL,nl;q=0.9,en;q=0.5")
ACCEPT_DE = (b"accept-language", b"de")


@pytest.mark.parametrize(
    ("header", "expected"),
    [(COOKIE, OBSERVERS_NL), (ACCEPT_NL, OBSERVERS_NL), (None, OBSERVERS_EN)],
)
async def test_a_refused_action_is_told_in_the_sockets_language(header, expected):
    gid, _, _ = await new_game()
    comm = await observer(gid, header)
    await comm.send_json_to({"type": "place", "square": 7, "rank": 2})
    error = await receive(comm)
    assert error == {
        "type": "error",
        "code": "not_a_player",
        "message": expected,
        "request": "place",
    }
    await comm.disconnect()


async def test_a_bad_frame_is_told_in_the_sockets_language_with_the_same_code():
    gid, _, _ = await new_game()
    messages = {}
    for name, header in (("nl", ACCEPT_NL), ("de", ACCEPT_DE), ("en", None)):
        comm = await observer(gid, header)
        await comm.send_to(text_data="not json at all")
        error = await receive(comm)
        assert error["code"] == "bad_json"
        messages[name] = error["message"]
        await comm.disconnect()
    assert messages["en"] == "The frame is not valid JSON."
    assert len(set(messages.values())) == 3
