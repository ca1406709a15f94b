"""The client's own address behind a reverse proxy, trusted only from the proxy itself.

nginx (deploy/nginx-proxy.conf) sends X-Forwarded-For and X-Forwarded-Proto. A connection
from an address in settings.TRUSTED_PROXIES (addresses or networks) has its scope's client
and scheme taken from them: the rightmost address that is not itself a trusted proxy, as
uvicorn's ProxyHeadersMiddleware reads it (an ASGI middleware of its own, used here in front
of daphne). A connection from anywhere else keeps its own address: a client cannot choose
its address by sending the header. Everything that counts per address (games/transport/limits.py,
request.META["REMOTE_ADDR"]) then sees the real client."""

from __future__ import annotations

from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware


def behind_trusted_proxies(application, trusted: list[str]):  # (ASGI)
    """`application`, reading the client from the headers of the `trusted` proxies; as it is
    when none is configured."""
    if not trusted:
        return application
    return ProxyHeadersMiddleware(application, trusted_hosts=trusted)
