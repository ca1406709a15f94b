import pytest

from tournaments import scheduler


@pytest.fixture(autouse=True)
def no_scheduler_after_the_test():
    """An event's socket starts the scheduler's thread (as the lobby's starts the heartbeat):
    it must not sweep the next test's events at the real time."""
    yield
    scheduler.stop()
