"""Doors' tests share the server tests' helpers (real sessions, sockets, fresh layers)."""

from tests.server.conftest import (  # noqa: F401
    fresh_channel_layer,
    no_heartbeat_after_the_test,
)
