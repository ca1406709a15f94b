"""The garbage collector of a server process, tuned for latency.

CPython's collector runs a young collection every 700 net allocations, and now and then a
full one, which walks every tracked object: Django, Channels and Twisted leave a few hundred
thousand of them after start-up, and a full collection stalled the event loop: under the
bench's open loop that was the whole tail of a move's latency (docs/performance.md, "The
garbage collector's pauses", and "Figures behind the code"). So, once the
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
