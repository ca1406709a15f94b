"""Who reacts to what, wired in one place when the app is ready (games/apps.py): the unit of
work (games/services/unit.py) says what happened, through the signals of
games/services/signals.py, and never calls the parts that react.

- a game finished with a result -> its ratings, in the transaction that ends it;
- a game changed (after the commit) -> its sockets get the events and the lobby hears of it
  (games/transport/broadcast.py), then a computer seated in it takes its turn
  (games/services/computer.py).
"""

from __future__ import annotations

from players import ratings

from .domain.models import Game
from .services import computer
from .services.signals import game_changed, game_finished
from .services.work import Result
from .transport import broadcast


def rate(sender: type[Game], game: Game, **kwargs: object) -> None:
    ratings.game_finished(game)


def publish(sender: type[Game], result: Result, **kwargs: object) -> None:
    broadcast.publish(result)


def computer_turn(sender: type[Game], result: Result, **kwargs: object) -> None:
    computer.on_game_changed(result)


def connect() -> None:
    """Connect the receivers (in this order: the sockets hear of a move before the computer
    answers it). Idempotent."""
    game_finished.connect(rate, dispatch_uid="games.ratings")
    game_changed.connect(publish, dispatch_uid="games.publish")
    game_changed.connect(computer_turn, dispatch_uid="games.services.computer")
