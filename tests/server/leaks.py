"""The leak check: no frame may tell a socket a rank its role may not see."""

from __future__ import annotations

from games import engine

from .conftest import iter_pieces

SETUP_EVENTS = {"placed", "removed", "random_setup", "setup", "cleared"}
MATCH_EVENT_FIELDS = {
    "chat": {"kind", "room", "role", "name", "guest", "text", "hidden"},
    "rematch_offered": {"kind", "color"},
    "rematch_declined": {"kind", "color"},
    "rematch": {"kind", "game"},
}
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
        assert_setup_private(view, role)
    if frame.get("type") in ("state", "event"):
        assert_clock_only(frame["clock"])
    event = frame.get("event")
    if event is not None and event["kind"] in SETUP_EVENTS and event["color"] != role:
        # Someone else's setup: only how many pieces it has placed, no square, no rank.
        assert set(event) == {"kind", "color", "placed"}, f"setup leak to {role}: {event}"
    if event is not None and event["kind"] in MATCH_EVENT_FIELDS:
        # The match's events carry these fields and nothing else: no piece.
        assert set(event) <= MATCH_EVENT_FIELDS[event["kind"]], f"unexpected fields: {event}"
        if event.get("hidden"):
            assert set(event) == {"kind", "room", "hidden"}, event


def assert_setup_private(view: dict, role: int) -> None:
    """A view of the setup phase shows no square of anybody else's setup."""
    if view["phase"] != "setup":
        return
    others = [p for p in iter_pieces(view["board"]) if p["color"] != role]
    assert not others, f"role {role} sees where the other side placed: {others}"


def assert_clock_only(clock: dict | None) -> None:
    """Every state and event frame carries the clock, and the clock carries only times."""
    if clock is None:
        return
    assert set(clock) == CLOCK_FIELDS, clock
    assert all(isinstance(ms, int) and ms >= 0 for ms in clock["remaining_ms"]), clock
    assert clock["running"] in (0, 1, None) and not list(iter_pieces(clock))
