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
