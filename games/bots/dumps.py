"""Reading the game records that `python -m games.bots.tournament_cli --dump FILE` writes:
gzipped JSON, one record a game with the players' names, both setups and the moves."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator

from games.engine import Game


def recorded_games(name: str, paths: list[str]) -> Iterator[tuple[dict, int, Game]]:
    """For every recorded classic game that `name` played: the record, the colour `name`
    played and a fresh game set up from the record's setups (its moves not yet played:
    `record["moves"]`, each `[src, dst]`)."""
    for path in paths:
        with gzip.open(path, "rt") as handle:
            records = json.load(handle)
        for record in records:
            if name not in record["names"]:
                continue
            setups = [{int(sq): rank for sq, rank in s.items()} for s in record["setups"]]
            yield record, record["names"].index(name), Game.from_setups("classic", *setups)


__all__ = ["recorded_games"]
