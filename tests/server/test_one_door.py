"""A game is locked in one place, the repository of the unit of work
(games/services/repository.py): no other module of the server locks a game row. And one
function ends a game (games/services/endings.py `finish`)."""

from __future__ import annotations

import re

from .test_import_graph import modules

LOCKS = re.compile(r"Game\.objects\.select_for_update|FOR UPDATE")
THE_ONE_PLACE = "games.services.repository"


def test_only_the_repository_locks_a_game_row():
    lockers = [name for name, (path, _) in modules().items() if LOCKS.search(path.read_text())]
    assert lockers == [THE_ONE_PLACE]


ENDS = re.compile(r"\.status = Game\.Status\.(FINISHED|ABORTED)")


def test_only_finish_ends_a_game():
    """(An imported record is stored finished: it is created so, never ended.)"""
    enders = [name for name, (path, _) in modules().items() if ENDS.search(path.read_text())]
    assert enders == ["games.services.endings"]
