"""`make bench` / `python -m bench`: the live game path measured as production runs it.

The runner (this package's __main__) migrates a database of its own, starts daphne on
PostgreSQL + Redis with DEBUG off (one process, then two) and a bare daphne echo server as the
baseline, and drives them from a separate client process (bench.client) over real websockets.
See docs/performance.md, "Live game path".
"""
