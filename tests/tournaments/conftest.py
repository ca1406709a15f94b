"""The in-process tests of events run with the process's background work off (as those of
tests/server): a test that started the scheduler (stratego_site/scheduler.py, whose jobs
include the events') has it stopped after it, so it never sweeps the next test's events at
the real time."""

from tests.server.conftest import no_heartbeat_after_the_test  # noqa: F401 (a fixture)
