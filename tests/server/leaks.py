"""The leak check: no frame may tell a socket a rank its role may not see."""

from __future__ import annotations

from games import engine

from .conftest import iter_pieces

SECRET_EVENT_FIELDS = {"placed": "rank", "random_setup": "ranks", "setup": "ranks"}
CLOCK_FIELDS = {"control", "remaining_ms", "running", "setup_ms"}


def assert_no_leak(frame: dict, role: int) -> None:
    view = frame.get("view")
    if view is not None:
        over = view["phase"] == "finished"
        assert view["viewer"] == role
        for piece in iter_pieces(view["board"]):
            if piece["color"] != role and piece["rank"] is not None:
                assert over or piece["revealed"], f"role {role} sees a hidden rank: {frame}"
        if role == engine.OBSERVER:
            assert view["remaining"] is None
    if frame.get("type") in ("state", "event"):
        assert_clock_only(frame["clock"])
    event = frame.get("event")
    if event is not None and event["kind"] in SECRET_EVENT_FIELDS:
        if event["color"] != role:
            assert event[SECRET_EVENT_FIELDS[event["kind"]]] is None, f"leak to {role}: {event}"


def assert_clock_only(clock: dict | None) -> None:
    """Every state and event frame carries the clock, and the clock carries only times."""
    if clock is None:
        return
    assert set(clock) == CLOCK_FIELDS, clock
    assert all(isinstance(ms, int) and ms >= 0 for ms in clock["remaining_ms"]), clock
    assert clock["running"] in (0, 1, None) and not list(iter_pieces(clock))
