"""The numbered events a service writes, and their publication after the commit."""

from __future__ import annotations

from .. import engine, snapshots
from ..broadcast import nudge_game_on_commit, publish_on_commit
from ..models import RED, Game, GameEvent
from . import rows


def emit(game: Game, kind: str, red: dict, blue: dict | None = None, obs: dict | None = None):
    """Write one event; payloads default to the red one (a public event)."""
    game.version += 1
    event = GameEvent(
        game=game,
        version=game.version,
        kind=kind,
        red_payload={"kind": kind, **red},
        blue_payload={"kind": kind, **(red if blue is None else blue)},
        observer_payload={"kind": kind, **(red if obs is None else obs)},
    )
    rows.add(game, event)  # (in a unit of work, written with the game at its commit)
    outbox(game).append(event)


def outbox(game: Game) -> list[GameEvent]:
    """The events written on this Game instance and not yet published (by commit)."""
    return game.__dict__.setdefault("_outbox", [])


def private_event(game: Game, kind: str, color: int, secret: dict, hidden: dict) -> None:
    """An event whose `secret` fields only `color` may see; the others get `hidden`."""
    own, other = secret, hidden
    if color == RED:
        emit(game, kind, own, other, other)
    else:
        emit(game, kind, other, own, other)


def publish(game: Game, eg: engine.Game | None = None) -> None:
    """After the commit, each audience gets the frames of the events written since the last
    publish (a change without events, a nudge: the sockets look for themselves). `eg`: the
    game's saved state, parsed, when the caller has it."""
    events = outbox(game)
    if not events:
        nudge_game_on_commit(game.public_id, game.version)
        return
    messages = snapshots.pushed_frames(game, events, eg)
    events.clear()
    publish_on_commit(game.public_id, messages)
