"""The rules page's small diagrams: positions on the 5x5 board whose marked squares the engine
computes (the legal moves of one piece), drawn on the page by the game's own board code."""

from __future__ import annotations

import random
from collections.abc import Callable

from games import engine

R, B = engine.RED, engine.BLUE


def position(pieces: dict[int, tuple[int, int]], piece: int | None = None,
             variant: str = "mini") -> dict:  # fmt: skip
    """A diagram: every piece shown; `piece`'s legal destinations marked (by the engine)."""
    game = engine.Game.from_position(variant, pieces, turn=R)
    view = game.view(R).to_dict()
    board = [
        {"color": color, "rank": rank, "moved": False, "revealed": True, "scout": False}
        if (color_rank := pieces.get(square))
        and ((color := color_rank[0]) is not None)
        and ((rank := color_rank[1]) is not None)
        else None
        for square in range(view["width"] * view["height"])
    ]
    targets = [dst for src, dst in view["legal_moves"] if src == piece]
    return {"width": view["width"], "height": view["height"], "lakes": view["lakes"],
            "board": board, "targets": targets, "selected": piece}  # fmt: skip


def whole_board() -> dict:
    """The classic board: the lakes, and both armies set up on their four rows."""
    game = engine.Game("classic")
    rng = random.Random(7)
    for color in (R, B):
        game.random_setup(color, rng)
    setups = game.setups
    pieces = {sq: (R, rank) for sq, rank in setups[R].items()}
    pieces |= {sq: (B, None) for sq in setups[B]}
    view = game.view(R).to_dict()
    board = [
        {
            "color": pieces[sq][0],
            "rank": pieces[sq][1],
            "moved": False,
            "revealed": False,
            "scout": False,
        }
        if sq in pieces
        else None  # fmt: skip
        for sq in range(view["width"] * view["height"])
    ]
    return {"width": view["width"], "height": view["height"], "lakes": view["lakes"],
            "board": board, "targets": [], "selected": None}  # fmt: skip


DIAGRAMS: dict[str, Callable[[], dict]] = {
    "board": whole_board,
    "moving": lambda: position({12: (R, 4), 24: (B, 12), 0: (R, 12), 17: (B, 5)}, piece=12),
    "scout": lambda: position(
        {11: (R, 2), 13: (B, 5), 0: (R, 12), 24: (B, 12), 1: (R, 11)}, piece=11
    ),  # fmt: skip
    "battle": lambda: position({12: (R, 6), 17: (B, 5), 0: (R, 12), 24: (B, 12)}, piece=12),
    "bomb": lambda: position(
        {12: (R, 3), 17: (B, 11), 16: (B, 12), 0: (R, 12), 18: (B, 11)}, piece=12
    ),  # fmt: skip
    "spy": lambda: position({12: (R, 1), 17: (B, 10), 0: (R, 12), 24: (B, 12)}, piece=12),
}
