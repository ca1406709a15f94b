"""What one unit of work decided (games/services/unit.py), as plain values: the steps of the
services fill a `UnitOfWork`; a committed one is a `Result`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from django.db import models

from .. import engine
from ..domain.models import Game, GameEvent


@dataclass
class UnitOfWork:
    """One change of one game under its row lock: what the step decided, nothing hidden."""

    game: Game
    at: datetime  # when the change arrived: the clock is read as of then
    loaded: dict[str, object]  # the game's columns as locked (the write sends the others)
    rows: list[models.Model] = field(default_factory=list)  # new rows, written with the game
    events: list[GameEvent] = field(default_factory=list)  # the numbered events, in order
    lobby: bool = False  # the lobby's lists change
    relaxed: bool = False  # the COMMIT need not wait for the disk (games/services/play.py)
    timed_out: bool = False  # the game's time had run out: it ended on time instead
    _eg: engine.Game | None = None

    @property
    def eg(self) -> engine.Game:
        """The engine's game, loaded from the saved state on first use."""
        if self._eg is None:
            self._eg = engine.Game.from_dict(self.game.state)
        return self._eg

    def add(self, row: models.Model) -> None:
        self.rows.append(row)


@dataclass(frozen=True)
class Result:
    """What a committed unit of work did."""

    game: Game
    eg: engine.Game | None  # the engine's game as saved (None: the step never loaded it)
    events: tuple[GameEvent, ...]
    lobby: bool
    timed_out: bool

    @property
    def version(self) -> int:
        return self.game.version


Step = Callable[[UnitOfWork], None]
