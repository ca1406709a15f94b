"""How a game ends: `finish` is the only way. With a result (the engine's outcome: a win or a
draw), or with none (`aborted` before it began, `abandoned` by everybody)."""

from __future__ import annotations

from .. import engine
from ..domain import clocks
from ..domain.models import Game
from .events import emit
from .signals import event_game, game_ended, game_finished
from .work import UnitOfWork

ABORTED, ABANDONED, NO_RESULT = engine.ABORTED, engine.ABANDONED, engine.NO_RESULT


def finish(unit: UnitOfWork, termination: str, winner: int | None = None) -> None:
    """End the game as of the unit's time: stop the clock, record the result (the engine's
    game ends too, unless it has already: then its outcome is the result), say so, and let
    the ratings count it in this same transaction."""
    game, at = unit.game, unit.at
    if termination not in NO_RESULT:
        if unit.eg.outcome is None:
            unit.eg.end(engine.Outcome(winner, engine.Termination(termination)))
        outcome = unit.eg.outcome
        assert outcome is not None  # (it has ended)
        winner, termination = outcome.winner, outcome.termination
    game.finished = at
    clocks.stop(game, at)  # (while the status still says whose clock runs)
    if termination in NO_RESULT:
        game.status = Game.Status.ABORTED
    else:
        game.status = Game.Status.FINISHED
        game.winner = winner
    game.termination = termination
    game.draw_offer = None
    emit(unit, "game_over", {"winner": winner, "termination": str(termination)})
    unit.lobby = True
    if game.status == Game.Status.FINISHED:
        game_finished.send(sender=Game, game=game)
    game_ended.send(sender=Game, game=game)  # (every ending: an event records its result)


def finish_by_engine(unit: UnitOfWork) -> None:
    """End the game as the engine's game has ended (a move took the flag, a resignation)."""
    outcome = unit.eg.outcome
    assert outcome is not None, "the engine's game has not ended"
    finish(unit, outcome.termination, outcome.winner)


def abort(unit: UnitOfWork) -> None:
    """End a game that never began, with no result."""
    finish(unit, ABORTED)


def in_event(game: Game) -> bool:
    """Whether `game` is played in an event (a receiver of `signals.event_game` says so): a
    rule-breaking move then ends it against its mover instead of being refused (as a referee
    forfeits a program for an irregularity), and it is played out even when nobody watches
    (games/services/cleanup.py)."""
    return any(answer is True for _, answer in event_game.send(sender=Game, game=game))
