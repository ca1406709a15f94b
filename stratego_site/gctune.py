"""The garbage collector of a server process, tuned for latency.

CPython's collector runs a young collection every 700 net allocations, and now and then a
full one, which walks every tracked object: Django, Channels and Twisted leave a few hundred
thousand of them after start-up, and a full collection stalled the event loop for 50-100 ms.
Under the bench's open loop at 100 moves/s on one process that was the whole tail: move ->
opponent p99 38-46 ms, worst 101-116 ms, against 14-16 ms and 19-25 ms with this tuning
(alternated runs of `python -m bench.profile 100 10`, docs/performance.md). So, once the
process has started: collect, then freeze what is left (the start-up objects move to a
permanent generation that collections skip), and collect the young generation after 50,000
allocations instead of 700 (the usual trade of a little memory for fewer pauses).
"""

from __future__ import annotations

import gc

THRESHOLDS = (50_000, 20, 100)  # CPython's defaults: (700, 10, 10)


def tune() -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
