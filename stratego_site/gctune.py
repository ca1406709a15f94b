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
FULL_COLLECTION_SECONDS: it walks only what is not frozen, and its pause is measured in
docs/performance.md ("A full collection now and then").
"""

from __future__ import annotations

import gc
import logging
import time

logger = logging.getLogger(__name__)

THRESHOLDS = (50_000, 20, 100)  # CPython's defaults: (700, 10, 10)
FULL_COLLECTION_SECONDS = 30.0


def tune() -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


def full_collection() -> float:
    """A full collection (the scheduler's job); the seconds until the next one."""
    started = time.perf_counter()
    freed = gc.collect()
    logger.debug("full collection: %d objects freed in %.1f ms", freed,
                 (time.perf_counter() - started) * 1000)  # fmt: skip
    return FULL_COLLECTION_SECONDS
