"""A server's event loop lag, measured when asked for (stratego_site/looplag.py)."""

from __future__ import annotations

import asyncio
import logging
import threading
import time

from stratego_site import looplag, scheduler


def test_a_probe_measures_how_long_the_loop_was_busy():
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        assert looplag.probe(loop) < 50  # an idle loop runs it at once
        loop.call_soon_threadsafe(time.sleep, 0.2)  # the loop is busy for 200 ms
        time.sleep(0.02)
        assert looplag.probe(loop) >= 150
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


async def test_the_application_notes_its_loop_and_the_job_logs_at_debug_only(monkeypatch, caplog):
    monkeypatch.setattr(looplag, "_loop", None)
    monkeypatch.setattr(looplag, "REPORT_SECONDS", 0.2)
    seen = []

    async def app(scope, receive, send):
        seen.append(scope["type"])

    await looplag.watching(app)({"type": "http"}, None, None)
    assert seen == ["http"] and looplag._loop is asyncio.get_running_loop()
    assert scheduler.LOOP_LAG in scheduler.JOBS

    with caplog.at_level(logging.INFO, logger=looplag.__name__):
        assert await asyncio.to_thread(looplag.measure) == looplag.REPORT_SECONDS
    assert not caplog.messages  # not asked for: no probe, no line
    with caplog.at_level(logging.DEBUG, logger=looplag.__name__):
        assert await asyncio.to_thread(looplag.measure) == 0.0
    (line,) = caplog.messages
    assert line.startswith("event loop lag: p50 ") and "probes" in line
