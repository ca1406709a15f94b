"""What other parts of the site react to, sent by the unit of work (games/services/unit.py).
Who listens is wired in one place, games/reactions.py, when the app is ready.

- `game_finished(game)`: a game ended with a result, inside the transaction that ends it
  (the ratings count it in the same transaction).
- `game_ended(game)`: a game ended, with a result or without one (aborted, abandoned),
  inside the transaction that ends it, with its row locked (an event records its result in
  that same transaction).
- `event_game(game)`: a question, not news: is `game` played in an event? A receiver
  answers True for a game of its own; such a game is played out strictly (a rule-breaking
  move forfeits it, it is not stopped for want of watchers). Ask through
  `endings.in_event`.
- `game_changed(result)`: a unit of work committed; `result` is its `unit.Result` (the
  sockets get its events, the lobby hears of it, a computer seated in it takes its turn).
"""

from __future__ import annotations

from django.dispatch import Signal

game_finished = Signal()
game_ended = Signal()
event_game = Signal()
game_changed = Signal()
