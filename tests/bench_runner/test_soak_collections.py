"""The soak reads each server's full collections from its log (stratego_site/gctune.py
writes one line a collection when its logger is at DEBUG, as the soak sets it)."""

from __future__ import annotations

import gc
import logging

from bench.soak.__main__ import collection_pauses
from bench.soak.report import collections_line
from stratego_site import gctune


def test_the_pauses_the_collector_logs_are_read_back_by_kind(tmp_path, caplog):
    with caplog.at_level(logging.DEBUG, logger=gctune.__name__):
        gctune.full_collection()
    gc.unfreeze()  # (the collection froze this test process's objects)
    log = tmp_path / "daphne-0.log"
    log.write_text("\n".join(caplog.messages + ["whole collection: 5 objects freed in 120.5 ms"]))
    (tmp_path / "door.log").write_text("full collection: 1 objects freed in 999.0 ms")
    pauses = collection_pauses([log, tmp_path / "door.log", tmp_path / "absent.log"])
    assert len(pauses["full"]) == 1 and pauses["full"][0] >= 0
    assert pauses["whole"] == [120.5]  # the door's log is not a server's
    assert "1 whole, pause p50 120.5 / most 120.5 ms" in collections_line({"collections": pauses})
    assert collections_line({}) == "- the servers' full collections: none logged"
