"""The garbage collector of a server process, tuned for latency.

CPython's collector runs a young collection every 700 net allocations, and now and then a
full one, which walks every tracked object: Django, Channels and Twisted leave a few hundred
thousand of them after start-up, and a full collection stalled the event loop: under the
bench's open loop that was the whole tail of a move's latency (docs/performance.md, "The
garbage collector's pauses", and "Figures behind the code"). So, once the
process has started: collect, then freeze what is left (the start-up objects move to a
permanent generation that collections skip), and collect the young generation after 50,000
allocations instead of 700 (the usual trade of a little memory for fewer pauses).

With those thresholds a full collection came only after about a hundred million
allocations, and what only a full collection frees waited that long: a closed socket's
protocol objects (daphne's, autobahn's, Twisted's) hold one another in cycles, and a
process's resident memory grew by the sockets that had come and gone since the last one.
So the scheduler (stratego_site/scheduler.py) also runs a full collection every
FULL_COLLECTION_SECONDS. Its walk of a loaded process's heap costs about 0.1 s of CPU. With
GC_THAW_EVERY above 1, each full collection freezes what survived it and the next walks only
what came since (a third of the cost), every THAW_EVERY-th first thawing everything, so a
cycle frozen while it was alive (a socket open at the time) is freed at the latest then.
Measured in the soak, that did not shorten a move's tail (the event loop is rarely where a
move waits), so it is off by default: docs/performance.md, "The full collections' pauses".
"""

from __future__ import annotations

import gc
import logging
import os
import random
import time

logger = logging.getLogger(__name__)

THRESHOLDS = (50_000, 20, 100)  # CPython's defaults: (700, 10, 10)
FULL_COLLECTION_SECONDS = 30.0
# 1: every full collection walks everything; 6: a whole walk every three minutes, the five
# between walk only what came since the last
THAW_EVERY = max(1, int(os.environ.get("GC_THAW_EVERY", "1")))

_since_thaw = 0


def tune() -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


def full_collection() -> float:
    """A full collection of what is not frozen, then a freeze of what survived it; every
    THAW_EVERY-th, of everything (the scheduler's job). The seconds until the next one."""
    global _since_thaw
    started, cpu_started = time.perf_counter(), time.thread_time()
    _since_thaw += 1
    whole = _since_thaw >= THAW_EVERY
    if whole:
        gc.unfreeze()
        _since_thaw = 0
    freed = gc.collect()
    gc.freeze()
    # the thread's CPU time is the walk's cost; the wall time, what the loop waited, is more
    # on a busy machine
    logger.debug("%s collection: %d objects freed in %.1f ms (%.1f ms of CPU), %d frozen",
                 "whole" if whole else "full", freed, (time.perf_counter() - started) * 1000,
                 (time.thread_time() - cpu_started) * 1000, gc.get_freeze_count())  # fmt: skip
    return next_full_collection_in()


def next_full_collection_in() -> float:
    """FULL_COLLECTION_SECONDS, give or take a quarter: processes started together (a deploy,
    the soak) would otherwise pause at the same instant every time, and a move between two
    of them would wait for both pauses in a row."""
    return FULL_COLLECTION_SECONDS * random.uniform(0.75, 1.25)
