"""How a game ends: with the engine's result, or aborted before it began."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from .. import clocks, engine
from ..models import Game
from .events import emit

# Told of every game that ends (finished or aborted) inside the transaction that ends it, with
# the game row locked: apps that build on games register here (tournaments/apps.py).
ended_hooks: list[Callable[[Game], None]] = []
# Whether `game` is played in an event (tournaments/apps.py): a rule-breaking move ends it
# against its mover instead of being refused (as a referee forfeits a program for an
# irregularity), and it is played out even when nobody watches (games/cleanup.py).
event_hooks: list[Callable[[Game], bool]] = []


def finish(game: Game, eg: engine.Game, at: datetime) -> None:
    """The engine's outcome is the game's: stop the clock as of `at` and say so."""
    outcome = eg.outcome
    game.finished = at
    clocks.stop(game, at)  # (while the status still says whose clock runs)
    game.status = Game.Status.FINISHED
    game.winner = outcome.winner
    game.termination = outcome.termination
    game.draw_offer = None
    emit(game, "game_over", {"winner": outcome.winner, "termination": outcome.termination})
    rate_on_finish(game)
    tell_ended(game)


def rate_on_finish(game: Game) -> None:
    """Every game with a result ends here: update the ratings in this same transaction."""
    from players import ratings  # players imports games

    ratings.game_finished(game)


def abort(game: Game, at: datetime) -> None:
    """End a game that never began, with no result."""
    game.finished = at
    clocks.stop(game, at)
    game.status = Game.Status.ABORTED
    game.termination = "aborted"
    game.draw_offer = None
    emit(game, "game_over", {"winner": None, "termination": "aborted"})
    tell_ended(game)


def tell_ended(game: Game) -> None:
    for hook in ended_hooks:
        hook(game)


def in_event(game: Game) -> bool:
    return any(hook(game) for hook in event_hooks)
