"""Limits per client, per server process: open sockets per session and per address, new
connections per address (a reconnect loop), and a reader that does not read.

A socket over a limit is accepted, told why (an error frame `too_many_sockets` or
`reconnecting_too_fast`) and closed with CLOSE_TOO_MANY (docs/protocol.md). Everything here
runs on the event loop's thread: no lock.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from django.conf import settings
from django.utils.translation import gettext as _

from ..domain import error_codes
from ..engine.errors import CodedError
from . import compat
from .guards import TokenBucket

CLOSE_TOO_MANY = 4029  # too many sockets, or new connections too fast, from one client
CLOSE_SLOW_READER = 4030  # (not seen by a client that does not read: it is dropped)

SOCKETS_PER_SESSION: int = settings.SOCKETS_PER_SESSION
SOCKETS_PER_ADDRESS: int = settings.SOCKETS_PER_ADDRESS
CONNECTS_PER_SECOND: float = settings.CONNECTS_PER_SECOND
CONNECT_BURST: float = settings.CONNECT_BURST
SLOW_READER_BYTES: int = settings.SLOW_READER_BYTES
MAX_TRACKED_ADDRESSES = 10_000  # connect buckets kept (least recently used go first)

_open: dict[str, int] = {}  # "session:<key>" / "address:<ip>" -> open sockets
_connects: OrderedDict[str, TokenBucket] = OrderedDict()


class Refused(CodedError):
    CODES = error_codes.CONNECTING


def client_keys(scope: dict) -> list[str]:
    keys = []
    session = scope.get("session")
    key = getattr(session, "session_key", None) if session is not None else None
    if key:
        keys.append(f"session:{key}")
    client = scope.get("client")
    if client:
        keys.append(f"address:{client[0]}")
    return keys


def cap(key: str) -> int:
    return SOCKETS_PER_SESSION if key.startswith("session:") else SOCKETS_PER_ADDRESS


def admit(scope: dict) -> list[str]:
    """Count a new socket against its client's limits; the keys to release when it closes.
    Raises Refused (and counts nothing) over a limit."""
    keys = client_keys(scope)
    address = next((k for k in keys if k.startswith("address:")), None)
    if address is not None and not connect_bucket(address).take():
        raise Refused("reconnecting_too_fast", _("Too many new connections: wait a little."))
    for key in keys:
        if _open.get(key, 0) >= cap(key):
            raise Refused("too_many_sockets", _("Too many open sockets: close some tabs."))
    for key in keys:
        _open[key] = _open.get(key, 0) + 1
    return keys


def release(keys: list[str]) -> None:
    for key in keys:
        left = _open.get(key, 0) - 1
        if left > 0:
            _open[key] = left
        else:
            _open.pop(key, None)


def connect_bucket(address: str) -> TokenBucket:
    bucket = _connects.pop(address, None) or TokenBucket(CONNECTS_PER_SECOND, CONNECT_BURST)
    _connects[address] = bucket
    while len(_connects) > MAX_TRACKED_ADDRESSES:
        _connects.popitem(last=False)
    return bucket


def open_sockets(key: str) -> int:
    return _open.get(key, 0)


def reset() -> None:
    """For tests."""
    _open.clear()
    _connects.clear()


# ---------------------------------------------------------------- a reader that does not read
def drop_if_not_reading(send: Callable) -> bool:
    """Abort the connection of a client that let SLOW_READER_BYTES pile up unread (its close
    frame would only queue behind them). True if it was dropped."""
    transport = compat.daphne_transport(send)
    if transport is None or compat.twisted_unsent_bytes(transport) <= SLOW_READER_BYTES:
        return False
    abort = getattr(transport, "abortConnection", None)
    if abort is not None:
        abort()
    return True
