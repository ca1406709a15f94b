"""The soak reads each server's full collections from its log (stratego_site/gctune.py
writes one line a collection when its logger is at DEBUG, as the soak sets it)."""

from __future__ import annotations

import gc
import logging

from bench.soak.__main__ import collection_pauses
from bench.soak.report import collections_line
from stratego_site import gctune


def test_the_pauses_the_collector_logs_are_read_back_by_kind(tmp_path, caplog, monkeypatch):
    monkeypatch.setattr(gctune, "THAW_EVERY", 6)  # the next one walks only the new
    monkeypatch.setattr(gctune, "_since_thaw", 0)
    with caplog.at_level(logging.DEBUG, logger=gctune.__name__):
        gctune.full_collection()
    gc.unfreeze()  # (the collection froze this test process's objects)
    log = tmp_path / "daphne-0.log"
    whole = "whole collection: 5 objects freed in 120.5 ms (80.25 ms of CPU), 9 frozen"
    log.write_text("\n".join([*caplog.messages, whole]))
    door = "full collection: 1 objects freed in 999.0 ms (1.0 ms of CPU), 9 frozen"
    (tmp_path / "door.log").write_text(door)
    pauses = collection_pauses([log, tmp_path / "door.log", tmp_path / "absent.log"])
    ((wall, cpu),) = pauses["full"]
    assert wall >= 0 and cpu >= 0
    assert pauses["whole"] == [[120.5, 80.25]]  # the door's log is not a server's
    line = collections_line({"collections": pauses})
    assert "1 whole, pause p50 120.5 / most 120.5 ms (CPU p50 80.25 / most 80.25 ms)" in line
    assert collections_line({}) == "- the servers' full collections: none logged"
