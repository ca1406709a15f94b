"""Hostile HTTP input: junk in an id is a 404 (never a database error), a body nested
thousands deep is a 400, and a websocket opens only from this server's own origin."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect as ws_connect

from games.domain.models import Game, SavedSetup

from .conftest import CONNECT_TIMEOUT, socket
from .daphne import Daphne
from .helpers import seated_game

pytestmark = pytest.mark.django_db

JUNK_IDS = ["%00", "abc%00defgh", "%00%00%00%00%00%00%00%00%00%00", "ABCDEFGHIJ", "%ff%fe",
            "x" * 500, "..%2f..%2fetc", "%E2%80%AE", "12345678901"]  # fmt: skip
GAME_PAGES = ["/games/{}/", "/games/{}/join/", "/games/{}/moves.json", "/games/{}/replay/",
              "/games/{}/record.xml", "/games/{}/report/"]  # fmt: skip


def no_raise() -> Client:
    return Client(raise_request_exception=False)


@pytest.mark.parametrize("page", GAME_PAGES)
def test_junk_in_a_game_id_is_404(page):
    client = no_raise()
    for junk in JUNK_IDS:
        for method in (client.get, client.post):
            assert method(page.format(junk)).status_code == 404, (page, junk)


def test_a_real_id_still_resolves():
    gid, _, _ = seated_game()
    client = no_raise()
    assert client.get(f"/games/{gid}/").status_code == 200
    assert client.get(f"/games/{gid}/moves.json").status_code == 200


def test_junk_variant_and_setup_id_are_404():
    client = no_raise()
    for url in ["/games/setups/%00/", "/games/setups/cla%00ssic/", "/games/variants/%00.json",
                "/games/setups/classic/99999999999999999999/delete/",
                "/games/setups/%00/1/delete/"]:  # fmt: skip
        assert client.get(url).status_code in (404, 405), url
        assert client.post(url).status_code == 404, url


def account() -> Client:
    client = no_raise()
    client.force_login(User.objects.create_user("keeper", password="pw-long-enough-1"))
    return client


@pytest.mark.parametrize("client_kind", ["guest", "account"])
def test_a_body_nested_5000_deep_is_400(client_kind):
    client = account() if client_kind == "account" else no_raise()
    for body in ("[" * 5000 + "]" * 5000, '{"a":' * 5000 + "1" + "}" * 5000):
        response = client.post("/games/setups/classic/", body, content_type="application/json")
        assert response.status_code == 400
        assert response.json()["error"] == "bad_json"


def test_a_setup_name_with_a_nul_byte_is_400_and_saves_nothing():
    layout = [[None] * 5 for _ in range(2)]
    body = json.dumps({"name": "a\x00b", "layout": layout})
    response = account().post("/games/setups/mini/", body, content_type="application/json")
    assert response.status_code == 400 and response.json()["error"] == "bad_field"
    assert SavedSetup.objects.count() == 0


# The Origin check. A real browser always sends Host (the server as it addressed it) and
# Origin (the page that opens the socket): they must name the same scheme, host and port.


async def handshake(headers: list[tuple[bytes, bytes]], path: str = "/ws/lobby/") -> bool:
    comm = socket(path, origin=False)
    comm.scope["headers"] = headers
    connected, _ = await comm.connect(timeout=CONNECT_TIMEOUT)
    await comm.disconnect()
    return connected


def hdrs(origin: str, host: str = "127.0.0.1:8000") -> list[tuple[bytes, bytes]]:
    return [(b"host", host.encode()), (b"origin", origin.encode())]


async def test_origin_must_match_scheme_host_and_port():
    assert await handshake(hdrs("http://127.0.0.1:8000"))
    assert await handshake(hdrs("http://localhost", "localhost"))
    assert await handshake(hdrs("http://localhost:80", "localhost"))
    for origin in ["http://127.0.0.1:1", "http://127.0.0.1", "https://127.0.0.1:8000",
                   "http://localhost:8000", "http://evil.example:8000", "null", "",
                   "http://127.0.0.1:99999", "http://[::1", "ws://127.0.0.1:8000"]:  # fmt: skip
        assert not await handshake(hdrs(origin)), origin


async def test_without_host_only_an_allowed_host_on_the_default_port_passes():
    """In-process communicators send no Host (daphne refuses such a handshake outright)."""
    assert await handshake([(b"origin", b"http://localhost")])
    for origin in [b"http://localhost:1", b"http://evil.example", b"https://localhost:80"]:
        assert not await handshake([(b"origin", origin)]), origin


async def test_a_host_outside_allowed_hosts_is_refused():
    assert not await handshake(hdrs("http://evil.example:8000", "evil.example:8000"))


async def test_trusted_origins_and_the_proxy_scheme_header():
    with override_settings(CSRF_TRUSTED_ORIGINS=["https://play.example"]):
        assert await handshake(hdrs("https://play.example"))
    proxied = [*hdrs("https://127.0.0.1:8000"), (b"x-forwarded-proto", b"https")]
    assert not await handshake(proxied)  # the header counts only when the settings say so
    with override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https")):
        assert await handshake(proxied)
        assert not await handshake(hdrs("http://127.0.0.1:8000") + proxied[2:])


@pytest.mark.django_db(transaction=True)  # the daphne process reads the committed game
def test_real_daphne_refuses_a_page_on_another_port(tmp_path):
    gid, red, _ = seated_game()
    daphne = Daphne(tmp_path / "daphne.log").start()
    try:
        cookie = {"Cookie": f"sessionid={red.session_key}"}
        evil = {"Origin": "http://127.0.0.1:1", **cookie}
        with pytest.raises(InvalidStatus) as refused:
            ws_connect(daphne.url(f"/ws/games/{gid}/"), additional_headers=evil)
        assert refused.value.response.status_code == 403
        with ws_connect(
            daphne.url(f"/ws/games/{gid}/"), additional_headers={**daphne.origin, **cookie}
        ) as ws:
            assert json.loads(ws.recv(5))["type"] == "state"
    finally:
        daphne.stop()
    assert Game.objects.get(public_id=gid).status == "setup"
