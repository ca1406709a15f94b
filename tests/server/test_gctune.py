"""A serving process's garbage collector: start-up objects frozen, young collections rarer
(stratego_site/gctune.py; the latency it buys is measured by the bench, docs/performance.md)."""

from __future__ import annotations

import gc
import weakref

import pytest

from stratego_site import gctune


def test_tune_freezes_what_exists_and_raises_the_thresholds():
    before = gc.get_threshold()
    try:
        gc.unfreeze()
        gctune.tune()
        assert gc.get_threshold() == gctune.THRESHOLDS
        assert gc.get_freeze_count() > 0
        assert gctune.THRESHOLDS[0] > before[0]
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def collections_from_a_thaw(monkeypatch):
    """Each test starts right after a whole collection, and leaves nothing frozen."""
    monkeypatch.setattr(gctune, "_since_thaw", 0)
    monkeypatch.setattr(gctune, "THAW_EVERY", 6)
    yield
    gc.unfreeze()


def a_cycle() -> weakref.ref:
    first, second = Node(), Node()
    first.other, second.other = second, first
    return weakref.ref(first)


def test_a_full_collection_frees_cycles_and_comes_again_on_a_schedule(collections_from_a_thaw):
    from stratego_site import scheduler

    first, second = Node(), Node()
    first.other, second.other = second, first  # a cycle, as a closed socket's objects make
    gone = weakref.ref(first)
    del first, second
    period = gctune.FULL_COLLECTION_SECONDS
    assert 0.75 * period <= gctune.full_collection() <= 1.25 * period
    assert gone() is None
    assert scheduler.GARBAGE in scheduler.JOBS


def test_what_survives_a_full_collection_is_frozen_and_a_later_thaw_frees_its_cycles(
    collections_from_a_thaw,
):
    first, second = Node(), Node()
    first.other, second.other = second, first  # alive during the collection: frozen
    kept = weakref.ref(first)
    gctune.full_collection()
    assert gc.get_freeze_count() > 0
    del first, second
    for _ in range(gctune.THAW_EVERY - 3):
        gctune.full_collection()
        assert kept() is not None  # the walks between thaws skip the frozen
    young = a_cycle()
    gctune.full_collection()
    assert young() is None  # what came since the last freeze is walked
    assert kept() is not None
    gctune.full_collection()  # the THAW_EVERY-th: everything is walked
    assert kept() is None


def test_processes_started_together_drift_apart_in_their_full_collections():
    """Each wait until the next full collection is the period give or take a quarter, and
    two processes' waits differ: their pauses do not stay in step."""
    waits = [gctune.next_full_collection_in() for _ in range(200)]
    period = gctune.FULL_COLLECTION_SECONDS
    assert all(0.75 * period <= w <= 1.25 * period for w in waits)
    assert max(waits) - min(waits) > 0.25 * period
