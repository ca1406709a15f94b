"""The places our flag may still be, as a flag hunter that reads bomb structures sees them.

Such a hunter (people do it, and so does DoI's `possibleFlag`) counts on our three back
rows every piece that has never moved and never shown a rank other than a bomb's, all of
whose neighbours are such pieces too: each is a structure that may hold the flag. It
sends its Miners only once few are left (DoI: when it has fewer than four Miners, once at
most three structures are left and no more than one more than its Miners), and once one
is left it knows where the flag is. A piece of ours that steps out of the back rows breaks
every structure it stood in or beside. `expert` counts what such a step gives away: the
structures left are worth STRUCTURES_WORTH / their number, so the first few steps cost
next to nothing and the step that leaves one structure standing costs most.
"""

from __future__ import annotations

from games.engine import BOMB, FLAG, Move

from .evaluation import Position

BACK_ROWS = 3  # rows from our back row where a hunter looks for the flag
STRUCTURES_WORTH = 40.0  # the structures left are worth this much divided by their number


def _still(position: Position, square: int) -> bool:
    """Whether the piece there is ours, has never moved and has shown no rank but a bomb's
    or the flag's."""
    return (
        position.owner[square] == position.me
        and not position.moved[square]
        and not (position.revealed[square] and position.ranks[square] not in (BOMB, FLAG))
    )


def structures(position: Position) -> list[int]:
    """The squares of our pieces that may still hold the flag as a hunter reads them."""
    variant, me = position.variant, position.me
    return [
        square
        for square in range(variant.size)
        if variant.depth(me, square) < BACK_ROWS
        and square not in variant.lakes
        and _still(position, square)
        and all(_still(position, n) for n in variant.neighbors[square])
    ]


def worth(count: int) -> float:
    """What `count` structures left standing are worth to us."""
    return STRUCTURES_WORTH / max(count, 1)


def given_away(position: Position, move: Move, standing: list[int]) -> float:
    """What `move` gives away by breaking structures (`standing`: `structures(position)`
    before it): nothing unless the piece that moves had never moved."""
    if position.moved[move.src] or position.owner[move.src] != position.me:
        return 0.0
    neighbors = position.variant.neighbors
    left = [s for s in standing if s != move.src and move.src not in neighbors[s]]
    if len(left) == len(standing):
        return 0.0
    return worth(len(left)) - worth(len(standing))


__all__ = ["BACK_ROWS", "STRUCTURES_WORTH", "given_away", "structures", "worth"]
