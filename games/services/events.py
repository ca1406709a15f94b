"""The numbered events a unit of work writes: one per change a client must hear of, each
with a payload per audience (Red, Blue, observers)."""

from __future__ import annotations

from ..domain.models import RED, GameEvent
from .work import Unit


def emit(unit: Unit, kind: str, red: dict, blue: dict | None = None, obs: dict | None = None):
    """Write one event; payloads default to the red one (a public event)."""
    game = unit.game
    game.version += 1
    event = GameEvent(
        game=game,
        version=game.version,
        kind=kind,
        red_payload={"kind": kind, **red},
        blue_payload={"kind": kind, **(red if blue is None else blue)},
        observer_payload={"kind": kind, **(red if obs is None else obs)},
    )
    unit.add(event)  # (written with the game at the unit's commit)
    unit.events.append(event)


def private_event(unit: Unit, kind: str, color: int, secret: dict, hidden: dict) -> None:
    """An event whose `secret` fields only `color` may see; the others get `hidden`."""
    own, other = secret, hidden
    if color == RED:
        emit(unit, kind, own, other, other)
    else:
        emit(unit, kind, other, own, other)
