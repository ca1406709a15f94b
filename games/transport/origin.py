"""The websocket Origin check: a socket is accepted only from a page of this very server.

Channels' AllowedHostsOriginValidator compares the Origin's host with ALLOWED_HOSTS and
ignores scheme and port, so a page served by any other program on an allowed host
(`http://127.0.0.1:1`) could open a socket with the player's cookie and resign the game.
Here, as Django's CSRF check does for forms, the Origin must equal scheme://host:port of
the handshake itself (its Host header, as the browser addressed this server), or be listed in
CSRF_TRUSTED_ORIGINS; the Host itself must be in ALLOWED_HOSTS.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def header(scope: dict, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


def normalized(scheme: str, host: str, port: int | None) -> tuple[str, str, int | None]:
    return scheme, host.lower().strip("[]"), port or DEFAULT_PORTS.get(scheme)


def parse_origin(value: str) -> tuple[str, str, int | None] | None:
    try:
        parts = urlsplit(value.strip())
        port = parts.port
    except ValueError:  # "http://h:99999", "http://[::1"
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return normalized(parts.scheme, parts.hostname, port)


def page_scheme(scope: dict) -> str:
    """The scheme of the page that may open this socket: https for wss, or when the
    reverse proxy says so in the header settings.SECURE_PROXY_SSL_HEADER names."""
    if scope.get("scheme") == "wss":
        return "https"
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        name = proxy[0].removeprefix("HTTP_").replace("_", "-").lower().encode()
        if header(scope, name) == proxy[1]:
            return "https"
    return "http"


def allowed_hosts() -> list[str]:
    """ALLOWED_HOSTS, with Django's own default for an empty list under DEBUG."""
    if settings.DEBUG and not settings.ALLOWED_HOSTS:
        return ["localhost", "127.0.0.1", "[::1]"]
    return list(settings.ALLOWED_HOSTS)


def own_origin(scope: dict) -> tuple[str, str, int | None] | None:
    """scheme, host, port of this server as the client addressed it (None: not allowed)."""
    host = header(scope, b"host")
    if host is None:
        return None
    domain, port = split_domain_port(host)
    if not domain or not validate_host(domain, allowed_hosts()):
        return None
    return normalized(page_scheme(scope), domain, int(port) if port else None)


def origin_allowed(scope: dict) -> bool:
    origin_header = header(scope, b"origin")
    origin = parse_origin(origin_header) if origin_header else None
    if origin is None:
        return False
    trusted = {parse_origin(o) for o in getattr(settings, "CSRF_TRUSTED_ORIGINS", [])}
    if origin in trusted:
        return True
    if header(scope, b"host") is None:
        return in_process_origin_allowed(origin)
    return origin == own_origin(scope)


def in_process_origin_allowed(origin: tuple[str, str, int | None]) -> bool:
    """A handshake without Host never comes from a real client (daphne refuses it; HTTP/1.1
    requires Host): it is an in-process test's communicator. It may use an allowed host on
    the scheme's default port."""
    scheme, host, port = origin
    bracketed = f"[{host}]" if ":" in host else host
    return port == DEFAULT_PORTS[scheme] and validate_host(bracketed, allowed_hosts())


class ExactOriginValidator:
    """ASGI middleware: refuse (close before accept) a websocket from any other origin."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
