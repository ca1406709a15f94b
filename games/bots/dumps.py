"""Reading the game records that `python -m games.bots.tournament_cli --dump FILE` writes:
gzipped JSON, one record a game with the players' names, both setups and the moves. While
it plays, it writes each finished game as one JSON line to FILE + PARTIAL, which a run cut
short (a session's end, a killed process) leaves behind for the same readers."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator

from games.engine import Game
from games.engine.results import Outcome, Termination

PARTIAL = ".partial"


def load_records(path: str) -> list[dict]:
    """The records of a dump, whole (`FILE`) or as far as it got (`FILE.partial`): a last
    line cut off by the end of the run is left out."""
    if not path.endswith(PARTIAL):
        with gzip.open(path, "rt") as handle:
            return json.load(handle)
    with open(path, encoding="utf-8") as handle:
        lines = [line for line in handle if line.strip()]
    records = []
    for number, line in enumerate(lines, 1):
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            if number < len(lines):
                raise
    return records


def recorded_games(name: str, paths: list[str]) -> Iterator[tuple[dict, int, Game]]:
    """For every recorded classic game that `name` played: the record, the colour `name`
    played and a fresh game set up from the record's setups (its moves not yet played:
    `record["moves"]`, each `[src, dst]`)."""
    for path in paths:
        for record in load_records(path):
            if name not in record["names"]:
                continue
            setups = [{int(sq): rank for sq, rank in s.items()} for s in record["setups"]]
            yield record, record["names"].index(name), Game.from_setups("classic", *setups)


def replayed_outcome(game: Game) -> Outcome | None:
    """The outcome of a recorded game replayed to its last move. Where an outside program
    played, the referee ended the game as soon as the side not to move had no move left
    (`Referee`'s `end_when_stuck`); the engine would end it one move later, so such a replay
    has no outcome of its own: the side to move won, by `no_moves`."""
    if game.outcome is None and not game.can_move(1 - game.turn):
        return Outcome(game.turn, Termination.NO_MOVES)
    return game.outcome


__all__ = ["PARTIAL", "load_records", "recorded_games", "replayed_outcome"]
