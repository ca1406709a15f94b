"""A daphne process stops by itself with sockets open (stratego_site/shutdown.py): on
SIGTERM with players and observers connected, the process exits with status 0 within the
harness's grace (it used to hang in the interpreter's exit, on a worker thread whose
broadcast waited for the stopped event loop, until the harness killed it), and its log holds
no traceback."""

from __future__ import annotations

import json
from contextlib import ExitStack

import pytest
from websockets.sync.client import connect as ws_connect

from games.domain.models import Presence

from .daphne import Daphne, assert_clean_log, terminate
from .helpers import set_up_game, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

OBSERVERS = 20  # (the more sockets close at once, the surer the old hang was)


def open_socket(server: Daphne, gid: str, ident):
    headers = dict(server.origin)
    if ident is not None:
        headers["Cookie"] = f"sessionid={ident.session_key}"
    return ws_connect(server.url(f"/ws/games/{gid}/"), additional_headers=headers)


def test_sigterm_with_sockets_open_ends_the_process_by_itself(tmp_path):
    gid, red, blue = set_up_game()
    server = Daphne(tmp_path / "daphne.log").start()
    try:
        with ExitStack() as stack:
            for who in (red, blue, *[None] * OBSERVERS):  # (each observer's leave broadcasts)
                ws = stack.enter_context(open_socket(server, gid, who))
                frame = json.loads(ws.recv(timeout=10))
                assert frame["type"] == "state", frame
            rows = Presence.objects.filter(game__public_id=gid)
            assert wait_until(lambda: rows.count() == 2 + OBSERVERS)
            proc = server.proc
            killed = terminate(proc, server.port)
            server.proc = None
    finally:
        server.stop()
    assert not killed, "daphne's exit hung after it stopped serving"
    assert proc.returncode == 0
    assert_clean_log(server.log_text())


def test_a_request_cut_short_by_the_shutdown_is_not_logged_as_an_error(caplog):
    """The handler before_shutdown installs: RequestAborted left by a cancelled Django view
    (asyncio's "Task exception was never retrieved") is quiet, anything else still logged."""
    import asyncio

    from django.core.exceptions import RequestAborted

    from stratego_site.shutdown import ignore_orphaned_disconnects

    loop = asyncio.new_event_loop()
    try:
        for exception in (RequestAborted(), ValueError("a real error")):
            context = {"message": "Task exception was never retrieved", "exception": exception}
            ignore_orphaned_disconnects(loop, context)
    finally:
        loop.close()
    assert "ValueError: a real error" in caplog.text
    assert "RequestAborted" not in caplog.text
