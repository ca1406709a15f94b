"""Computer players behind the engine's `Player` interface; each sees only its own view.

    from games.bots import get_player
    player = get_player("hard", seed=7)

Levels: "random" (the engine's RandomPlayer), "medium", "hard" and "expert". See docs/bots.md.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine.player_interface import Player, RandomPlayer

from .expert import ExpertPlayer
from .hard import HardPlayer
from .medium import MediumPlayer

PLAYERS: dict[str, Callable[[int | None], Player]] = {
    "random": lambda seed: RandomPlayer(seed),
    "medium": lambda seed: MediumPlayer(seed),
    "hard": lambda seed: HardPlayer(seed),
    "expert": lambda seed: ExpertPlayer(seed),  # budget: EXPERT_BUDGET seconds, default 1
}
LEVELS = tuple(PLAYERS)


def get_player(name: str, seed: int | None = None) -> Player:
    """A fresh player of level `name` ("random", "medium", "hard" or "expert")."""
    try:
        factory = PLAYERS[name]
    except KeyError:
        raise ValueError(f"unknown computer player {name!r}; known: {', '.join(PLAYERS)}") from None
    return factory(seed)


__all__ = ["LEVELS", "PLAYERS", "ExpertPlayer", "HardPlayer", "MediumPlayer", "get_player"]
