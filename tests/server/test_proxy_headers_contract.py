"""The contract stratego_site/proxy.py relies on, held against the locked uvicorn: its
ProxyHeadersMiddleware takes the client and scheme from X-Forwarded-For/-Proto only when the
peer is a trusted proxy, reads the rightmost untrusted address, and works for websockets."""

from __future__ import annotations

import asyncio

from stratego_site.proxy import behind_trusted_proxies


def seen_scope(trusted: list[str], peer: str, headers: dict[str, str], kind: str = "http"):
    seen: dict = {}

    async def app(scope, receive, send) -> None:
        seen.update(scope)

    wrapped = behind_trusted_proxies(app, trusted)
    scope = {
        "type": kind,
        "scheme": "ws" if kind == "websocket" else "http",
        "client": [peer, 50000],
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
    }
    asyncio.run(wrapped(scope, None, None))
    return seen


def test_a_trusted_proxy_names_the_client():
    seen = seen_scope(["127.0.0.1"], "127.0.0.1", {"X-Forwarded-For": "127.0.0.7"})
    assert seen["client"][0] == "127.0.0.7"


def test_the_rightmost_untrusted_address_is_the_client():
    forged = {"X-Forwarded-For": "198.51.100.7, 127.0.0.7"}  # what nginx makes of a forgery
    assert seen_scope(["127.0.0.1"], "127.0.0.1", forged)["client"][0] == "127.0.0.7"


def test_an_untrusted_peer_keeps_its_address():
    forged = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"}
    seen = seen_scope(["127.0.0.1"], "127.0.0.5", forged)
    assert seen["client"][0] == "127.0.0.5" and seen["scheme"] == "http"


def test_networks_and_the_scheme_for_websockets():
    headers = {"X-Forwarded-For": "192.0.2.4", "X-Forwarded-Proto": "https"}
    seen = seen_scope(["172.28.0.0/24"], "172.28.0.2", headers, kind="websocket")
    assert seen["client"][0] == "192.0.2.4" and seen["scheme"] == "wss"


def test_no_trusted_proxy_leaves_the_application_as_it_is():
    async def app(scope, receive, send) -> None:
        pass

    assert behind_trusted_proxies(app, []) is app
