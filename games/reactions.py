"""Who reacts to what, wired in one place when the app is ready (games/apps.py): the unit of
work (games/services/unit.py) says what happened, through the signals of
games/services/signals.py, and never calls the parts that react.

- a game finished with a result -> its ratings, in the transaction that ends it;
- a game ended (with a result or without) -> the event it is played in records its result
  on its pairing, in that same transaction (tournaments/results.py);
- asked whether a game is played in an event -> tournaments/results.py answers;
- a game changed (after the commit) -> its sockets get the events and the lobby hears of it
  (games/transport/broadcast.py), then a computer seated in it takes its turn
  (games/services/computer.py).
"""

from __future__ import annotations

from players import ratings
from tournaments import results as event_results

from .domain.models import Game
from .services import computer
from .services.signals import event_game, game_changed, game_ended, game_finished
from .services.work import Result
from .transport import broadcast


def rate(sender: type[Game], game: Game, **kwargs: object) -> None:
    ratings.game_finished(game)


def record_in_event(sender: type[Game], game: Game, **kwargs: object) -> None:
    event_results.game_ended(game)


def played_in_event(sender: type[Game], game: Game, **kwargs: object) -> bool:
    return event_results.is_event_game(game)


def publish(sender: type[Game], result: Result, **kwargs: object) -> None:
    broadcast.publish(result)


def computer_turn(sender: type[Game], result: Result, **kwargs: object) -> None:
    computer.on_game_changed(result)


def connect() -> None:
    """Connect the receivers (in this order: the sockets hear of a move before the computer
    answers it). Idempotent."""
    game_finished.connect(rate, dispatch_uid="games.ratings")
    game_ended.connect(record_in_event, dispatch_uid="tournaments.results")
    event_game.connect(played_in_event, dispatch_uid="tournaments.event_game")
    game_changed.connect(publish, dispatch_uid="games.publish")
    game_changed.connect(computer_turn, dispatch_uid="games.services.computer")
