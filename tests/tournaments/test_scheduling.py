"""The events' sweep is a job of the process's one scheduler (stratego_site/scheduler.py),
woken at once after the commit of a game of an event that ends; an event's socket starts
no background work."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import transaction

from stratego_site import scheduler as site_scheduler
from tournaments import consumers, live
from tournaments import scheduler as event_scheduler


def test_the_events_sweep_is_one_of_the_schedulers_jobs():
    assert site_scheduler.EVENTS in site_scheduler.JOBS
    assert site_scheduler.EVENTS.body is event_scheduler.turn
    assert site_scheduler.EVENTS.woken is live.woken
    assert not hasattr(event_scheduler, "start")  # nothing but the scheduler starts it
    assert "scheduler" not in vars(consumers)  # the socket does not start it either


def test_a_woken_job_runs_its_next_turn_at_once_and_stops_when_asked():
    turns: list[float] = []
    woken = threading.Event()
    job = site_scheduler.Job("test-woken", lambda: turns.append(time.monotonic()) or 60.0, woken)
    job.start()
    try:
        deadline = time.monotonic() + 5
        while not turns and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(turns) == 1
        woken.set()  # (a 60 s wait ends now)
        while len(turns) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(turns) == 2
        assert turns[1] - turns[0] < 5
    finally:
        job.stop(5)
    assert job.thread is None
    assert len(turns) == 2


@pytest.mark.django_db(transaction=True)
def test_a_change_wakes_the_events_job_only_after_the_commit():
    live.woken.clear()
    with transaction.atomic():
        live.changed_on_commit(1, wake=True)
        assert not live.woken.is_set()
    assert live.woken.is_set()
    live.woken.clear()
