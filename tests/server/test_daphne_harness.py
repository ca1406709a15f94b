"""The test harness's daphne shutdown: a server that has stopped listening but whose exit
hangs on a worker thread that never ends (what a stranded broadcast does to daphne) is
killed after a short grace; a server that exits by itself is never killed."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from .daphne import free_port, is_listening, terminate, wait_for_port

# A stand-in for daphne's exit: on SIGTERM it stops listening and exits; with "hang", a
# non-daemon thread that never ends keeps the interpreter's exit waiting, as the stranded
# `async_to_sync` of a disconnect handler does.
SERVER = """
import signal, socket, sys, threading, time
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", int(sys.argv[1])))
listener.listen()
def on_term(*_):
    listener.close()
    if sys.argv[2] == "hang":
        threading.Thread(target=threading.Event().wait).start()
    sys.exit(0)
signal.signal(signal.SIGTERM, on_term)
while True:
    time.sleep(0.05)
"""


@pytest.mark.parametrize("exit_hangs", [True, False])
def test_a_server_stuck_after_serving_is_killed_and_a_clean_one_is_not(exit_hangs):
    port = free_port()
    how = "hang" if exit_hangs else "clean"
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(port), how])
    try:
        wait_for_port(port, proc)
        assert is_listening(port)
        killed = terminate(proc, port)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert killed is exit_hangs
    assert proc.returncode == (-signal.SIGKILL if exit_hangs else 0)
    assert not is_listening(port)
