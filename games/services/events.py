"""The numbered events a unit of work writes, one per change a client must hear of, each
with a payload per audience (Red, Blue, observers). `EVENTS` is their catalogue: every kind
the server emits, with its fields; docs/protocol.md is checked against it
(tests/server/test_protocol_doc.py) and `emit` refuses anything outside it."""

from __future__ import annotations

from dataclasses import dataclass

from ..domain.models import RED, GameEvent
from .work import UnitOfWork


@dataclass(frozen=True)
class EventType:
    kind: str
    fields: tuple[str, ...]  # what its payload holds (docs/protocol.md's "fields")
    secret: tuple[str, ...] = ()  # only the owner's audience gets these (a private setup)
    variant: tuple[str, ...] = ()  # an audience's other shape: `chat` hidden from the players

    def allows(self, payload: dict) -> bool:
        return set(payload) <= {"kind", *self.fields, *self.variant}


_SETUP_SECRET = ("squares", "ranks")
EVENTS: dict[str, EventType] = {
    e.kind: e
    for e in (
        EventType("seated", ("seat", "name")),
        EventType("renamed", ("seat", "name")),  # a guest signed up: the seat is the account's
        EventType("placed", ("color", "square", "rank", "placed"), secret=("square", "rank")),
        EventType("removed", ("color", "square", "placed"), secret=("square",)),
        EventType("random_setup", ("color", "squares", "ranks", "placed"), _SETUP_SECRET),
        EventType("setup", ("color", "squares", "ranks", "placed"), _SETUP_SECRET),
        EventType("cleared", ("color", "placed")),
        EventType("ready", ("color", "playing")),
        EventType("move", ("ply", "color", "from", "to", "notation", "battle")),
        EventType("draw_offered", ("color",)),
        EventType("draw_declined", ("color",)),
        EventType("game_over", ("winner", "termination")),
        EventType("absent", ("seat", "since", "claimable_at")),
        EventType("present", ("seat",)),
        EventType("rematch_offered", ("color",)),
        EventType("rematch_declined", ("color",)),
        EventType("rematch", ("game",)),
        EventType("chat", ("room", "role", "name", "guest", "text"), variant=("hidden",)),
    )
}


def emit(unit: UnitOfWork, kind: str, red: dict, blue: dict | None = None, obs: dict | None = None):
    """Write one event; payloads default to the red one (a public event)."""
    game = unit.game
    payloads = [red, red if blue is None else blue, red if obs is None else obs]
    event_type = EVENTS.get(kind)
    if event_type is None or not all(event_type.allows(p) for p in payloads):
        raise ValueError(f"an event outside the catalogue: {kind} {payloads}")  # a bug
    game.version += 1
    event = GameEvent(
        game=game,
        version=game.version,
        kind=kind,
        red_payload={"kind": kind, **payloads[0]},
        blue_payload={"kind": kind, **payloads[1]},
        observer_payload={"kind": kind, **payloads[2]},
    )
    unit.add(event)  # (written with the game at the unit's commit)
    unit.events.append(event)


def private_event(unit: UnitOfWork, kind: str, color: int, secret: dict, hidden: dict) -> None:
    """An event whose `secret` fields only `color` may see; the others get `hidden`, which
    may hold none of the kind's secret fields."""
    if set(hidden) & set(EVENTS[kind].secret):
        raise ValueError(f"{kind}: a secret field in the others' payload {hidden}")  # a bug
    own, other = secret, hidden
    if color == RED:
        emit(unit, kind, own, other, other)
    else:
        emit(unit, kind, other, own, other)
