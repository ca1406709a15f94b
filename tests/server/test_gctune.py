"""A serving process's garbage collector: start-up objects frozen, young collections rarer
(stratego_site/gctune.py; the latency it buys is measured by the bench, docs/performance.md)."""

from __future__ import annotations

import gc

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


def test_a_full_collection_frees_cycles_and_comes_again_on_a_schedule():
    import weakref

    from stratego_site import scheduler

    first, second = Node(), Node()
    first.other, second.other = second, first  # a cycle, as a closed socket's objects make
    gone = weakref.ref(first)
    del first, second
    assert gctune.full_collection() == gctune.FULL_COLLECTION_SECONDS
    assert gone() is None
    assert scheduler.GARBAGE in scheduler.JOBS
