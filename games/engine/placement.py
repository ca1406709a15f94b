"""Setups: validating a whole army's placement and generating plausible random ones."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

from .errors import SetupError
from .pieces import BOMB, FLAG, RANK_NAMES, SCOUT
from .variants import Variant


def check_placement(
    variant: Variant, color: int, square: int, rank: int, placed: Mapping[int, int]
) -> None:
    """Raise SetupError unless `rank` may go on `square` given what is already `placed`."""
    if rank not in variant.army_counts:
        raise SetupError(
            "unknown_rank", f"there is no {RANK_NAMES.get(rank, rank)} in a {variant.name} army"
        )
    if not variant.is_on_board(square):
        raise SetupError("off_board", "that square is off the board")
    if square in variant.lakes:
        raise SetupError("lake", "pieces cannot stand in a lake")
    if not variant.is_setup_square(color, square):
        raise SetupError(
            "outside_setup_area", f"place your pieces in your own {variant.setup_rows} rows"
        )
    if square in placed:
        raise SetupError("occupied", "that square already holds a piece")
    if sum(1 for r in placed.values() if r == rank) >= variant.army_counts[rank]:
        raise SetupError("none_left", f"all your {RANK_NAMES[rank]} pieces are already placed")
    if rank == FLAG and variant.flag_on_back_row and not variant.is_back_row(color, square):
        raise SetupError(
            "flag_not_on_back_row", "in this variant the flag must stand on your back row"
        )


def remaining(variant: Variant, placed: Mapping[int, int]) -> dict[int, int]:
    """How many of each rank are still to place (the tray)."""
    used = Counter(placed.values())
    return {rank: count - used.get(rank, 0) for rank, count in variant.army}


def validate_setup(variant: Variant, color: int, setup: Mapping[int, int]) -> None:
    """Raise SetupError unless `setup` (square -> rank) is a complete legal army for `color`."""
    placed: dict[int, int] = {}
    for square, rank in setup.items():
        check_placement(variant, color, square, rank, placed)
        placed[square] = rank
    if Counter(placed.values()) != Counter(variant.army_counts):
        missing = {RANK_NAMES[r]: n for r, n in remaining(variant, placed).items() if n}
        raise SetupError("incomplete", f"the setup is not complete; still to place: {missing}")


def generate_setup(
    variant: Variant,
    color: int,
    rng: random.Random | None = None,
    placed: Mapping[int, int] | None = None,
) -> dict[int, int]:
    """A complete legal setup that keeps `placed` and fills the rest as a player might.

    Not uniform noise: the flag goes on the back row, bombs go next to it first, scouts lean
    to the front rows and the other pieces spread over the area.
    """
    rng = rng or random.Random()
    setup = dict(placed or {})
    todo = remaining(variant, setup)
    free = [sq for sq in variant.setup_squares(color) if sq not in setup]

    def put(rank: int, candidates: list[int]) -> None:
        square = rng.choice(candidates)
        setup[square] = rank
        free.remove(square)
        todo[rank] -= 1

    if todo.get(FLAG):
        back = [sq for sq in free if variant.is_back_row(color, sq)]
        if not back and variant.flag_on_back_row:
            raise SetupError("flag_not_on_back_row", "leave a square on your back row for the flag")
        put(FLAG, back or free)
    flag_square = next((sq for sq, r in setup.items() if r == FLAG), None)
    if flag_square is not None:
        for sq in sorted(variant.neighbors[flag_square]):
            if todo.get(BOMB) and sq in free and rng.random() < 0.85:
                put(BOMB, [sq])
    while todo.get(BOMB):
        deep = [sq for sq in free if variant.depth(color, sq) < variant.setup_rows - 1] or free
        put(BOMB, deep)
    while todo.get(SCOUT):
        weights = [1 + 2 * variant.depth(color, sq) for sq in free]
        put(SCOUT, rng.choices(free, weights=weights))
    rest = [rank for rank, count in todo.items() for _ in range(count)]
    rng.shuffle(rest)
    for rank in rest:
        put(rank, free)
    return setup
