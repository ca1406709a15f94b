"""Games in a given state, made through the services."""

from __future__ import annotations

from games import services
from games.identity import Identity

from .conftest import BLUE_SETUP, RED_SETUP, make_guest, place_all


def seated_game(variant: str = "mini") -> tuple[str, Identity, Identity]:
    red, blue = make_guest("red"), make_guest("blue")
    game = services.create_game(red, variant=variant, seat=0)
    services.join_game(game.public_id, blue)
    return game.public_id, red, blue


def set_up_game(ready: bool = True) -> tuple[str, Identity, Identity]:
    """A mini game with the SHORT_GAME setups placed (and both ready)."""
    gid, red, blue = seated_game()
    place_all(services.place_piece, gid, red, RED_SETUP)
    place_all(services.place_piece, gid, blue, BLUE_SETUP)
    if ready:
        services.ready(gid, red)
        services.ready(gid, blue)
    return gid, red, blue
