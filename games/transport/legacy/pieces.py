"""The legacy protocol's piece ids and board, translated to and from the engine's ranks and squares.

x is the column 0..9, y the row 0..9, so (x, y) is the engine's square y * 10 + x; Red
sets up on rows 0..3, Blue on rows 6..9 (the engine's classic board)."""

from __future__ import annotations

from games import engine

WIDTH = HEIGHT = 10
HIDDEN, LAKE, EMPTY = "X", "L", " "

# 1 Marshal .. 9 Scout (the old numbering, engine.CLASSIC_NUMBERS), then Spy, Bomb, Flag.
ID_OF_RANK: dict[int, str] = {
    **engine.CLASSIC_NUMBERS,
    engine.SPY: "S",
    engine.BOMB: "B",
    engine.FLAG: "F",
}
RANK_OF_ID: dict[str, int] = {piece_id: rank for rank, piece_id in ID_OF_RANK.items()}


def square_of(x: int, y: int) -> int | None:
    """The engine's square of (x, y), None when off the board."""
    if 0 <= x < WIDTH and 0 <= y < HEIGHT:
        return y * WIDTH + x
    return None


def xy_of(square: int) -> tuple[int, int]:
    y, x = divmod(square, WIDTH)
    return x, y


def board_cells(view: dict, color: int) -> str:
    """The 100 chars of a Board frame from `color`'s engine view (View.to_dict()): own pieces
    by id, every enemy piece X whatever the view knows of it, lakes L, empty squares blank."""
    lakes = set(view["lakes"])
    cells = []
    for square, piece in enumerate(view["board"]):
        if piece is None:
            cells.append(LAKE if square in lakes else EMPTY)
        elif piece["color"] == color and piece["rank"] is not None:
            cells.append(ID_OF_RANK[piece["rank"]])
        else:
            cells.append(HIDDEN)
    return "".join(cells)
