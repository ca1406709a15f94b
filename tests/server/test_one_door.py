"""A game is locked in one place, the repository of the unit of work
(games/services/repository.py): no other module of the server locks a game row. And one
function ends a game (games/services/endings.py `finish`)."""

from __future__ import annotations

import ast
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


# The tables of a game's state: only the services write them (each change a unit of work).
GAME_MODELS = {"Game", "Move", "GameEvent", "ChatMessage"}
GAME_RELATIONS = {"moves", "events", "chat_messages"}  # a game's rows, reached from the game
WRITES = {"save", "delete", "update", "create", "bulk_create", "bulk_update",
          "get_or_create", "update_or_create"}  # fmt: skip
WRITERS = "games.services"
# A benchmark that fills a throwaway database with finished games, never the site's.
ELSEWHERE = {"players.bench"}


def is_game(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id == "game") or (
        isinstance(node, ast.Attribute) and node.attr == "game"
    )


def reaches_game_rows(node: ast.AST) -> bool:
    """`Game.objects...` or `game.events...`: a query of a game's tables."""
    while isinstance(node, (ast.Attribute, ast.Call)):
        if isinstance(node, ast.Call):
            node = node.func
            continue
        if node.attr == "objects" and isinstance(node.value, ast.Name):
            return node.value.id in GAME_MODELS
        if node.attr in GAME_RELATIONS and is_game(node.value):
            return True
        node = node.value
    return False


def game_writes(source: str) -> list[int]:
    """The lines of `source` that write a game's tables through the ORM: a game saved or
    deleted, or a write through a query of its tables. (`game.save(path)`, with a positional
    argument, is the engine's game saved to a file.)"""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        method, receiver = node.func.attr, node.func.value
        saves_a_game = method in ("save", "delete") and is_game(receiver) and not node.args
        if saves_a_game or (method in WRITES and reaches_game_rows(receiver)):
            lines.append(node.lineno)
    return lines


def test_only_the_services_write_a_games_tables():
    writers = {
        f"{name}:{line}"
        for name, (path, _) in modules().items()
        if not (name == WRITERS or name.startswith(WRITERS + ".")) and name not in ELSEWHERE
        for line in game_writes(path.read_text())
    }
    assert writers == set()


def test_a_write_of_a_games_tables_is_found():
    source = (
        "Game.objects.filter(pk=1).update(red_name='x')\n"
        "self.game.save(update_fields=['state'])\n"
        "game.events.create(version=2)\n"
        "Seek.objects.filter(pk=1).update(game=game)\n"  # another app's row: not a game's
        "game.save(path)\n"  # the engine's game, to a file
        "game.state.update(turn=1)\n"  # a dict
        "Move.objects.bulk_create(rows)\n"
    )
    assert game_writes(source) == [1, 2, 3, 7]
