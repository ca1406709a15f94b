"""Computer players: the `Player` interface of Stratego Duel's programs, generalized to every
variant.

Stratego Duel lets programs play each other through a `Player` interface that a
GameManager drives. Here the GameManager is `games.engine.referee.Referee`; a Player only
ever receives what a human in its seat may know:

1. ``start(color, variant)``: its seat (`RED` moves first) and the variant it plays.
2. ``setup()`` -> ``{square: rank}``: its whole army. The default asks ``position(rank)``
   once per piece, as Duel's GameManager does ten times; override either. A `DuelPlayer`
   is asked ``position(name)`` with Duel's own piece names instead (`DUEL_PIECE_NAMES`).
3. ``view_positions(grid)``: the squares of the opponent's setup area that are occupied,
   one row of 0/1 per board row of that area, top to bottom (Duel's ``viewPositions``).
4. ``move(view)`` -> `Move`: called on its turn with `game.view(color)`: exactly what a
   human in that seat sees (own ranks, revealed enemy ranks, which enemy pieces moved or
   moved like a scout, captures, the public last move, and the legal moves). A Duel
   4-sequence ``(row, col, direction, steps)`` is accepted too, see `duel_move`.
5. ``tell_move(move, public)``: the opponent's move, with its public record (the dict of
   `MoveResult.to_public_dict`, which names ranks only when a battle revealed them).
6. ``fight(fight)``: after every battle, to both players: the squares and both ranks that
   the battle revealed (Duel's ``fight``, which told each side the other's piece).
7. ``finish(outcome)``: the game is over (no reply expected).

Squares are ints, ``row * width + col`` (row 0 is Red's back row: Duel's (row, col)).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .errors import SetupError
from .notation import Move
from .pieces import BOMB, COLORS, FLAG, GENERAL, MARSHAL, MINER, RED, SCOUT, SPY, opponent
from .placement import generate_setup
from .results import Outcome
from .variants import Variant
from .view import View


@dataclass(frozen=True)
class Fight:
    """A battle, as both players learn it: where it happened and the two ranks it revealed."""

    attacker_color: int
    src: int  # the attacker's square before the move
    dst: int  # the attacked square
    attacker_rank: int
    defender_rank: int
    result: str  # ATTACKER, DEFENDER or BOTH: who stays on the board


def opponent_setup_grid(variant: Variant, color: int, occupied: set[int]) -> list[list[int]]:
    """Duel's 0/1 grid of the setup area of `color`'s opponent, top row first."""
    enemy = opponent(color)
    rows = sorted({sq // variant.width for sq in variant.setup_squares(enemy)})
    return [
        [1 if row * variant.width + col in occupied else 0 for col in range(variant.width)]
        for row in rows
    ]


def duel_move(variant: Variant, color: int, move: Sequence[int]) -> Move:
    """Duel's ``{row, col, direction, steps}`` as a Move (direction 1 forward, 2 back,
    3 left, 4 right, as the mover sees the board). Raises ValueError if it leaves the board."""
    if len(move) != 4 or not all(isinstance(x, int) and not isinstance(x, bool) for x in move):
        raise ValueError(f"a Duel move is four ints (row, col, direction, steps), not {move!r}")
    row, col, direction, steps = move
    if (
        not (0 <= row < variant.height and 0 <= col < variant.width)
        or direction not in (1, 2, 3, 4)
        or steps < 1
    ):
        raise ValueError(f"{list(move)} is no move on this board")
    src = row * variant.width + col
    dst = variant.step(color, src, direction, steps)
    if dst is None:
        raise ValueError(f"{list(move)} leaves the board")
    return Move(src, dst)


class Player:
    """Base class of every computer player. Subclasses override `move` and one of
    `setup` / `position`; the notifications default to doing nothing."""

    name = "player"

    def __init__(self) -> None:
        self.color = RED
        self.variant: Variant | None = None

    def start(self, color: int, variant: Variant) -> None:
        """Duel's ``start(isFirst)``: which seat this player has, in which variant."""
        if color not in COLORS:
            raise ValueError(f"a player sits at RED or BLUE, not {color!r}")
        self.color = color
        self.variant = variant

    def position(self, rank: int) -> int:
        """Duel's ``position(piece)``: the square for one piece of this rank."""
        raise NotImplementedError("override position() or setup()")

    def setup(self) -> dict[int, int]:
        """The whole army as ``{square: rank}``. By default calls `position` per piece."""
        assert self.variant is not None, "start() first"
        placed: dict[int, int] = {}
        for rank, count in self.variant.army:
            for _ in range(count):
                square = self.position(rank)
                if square in placed:
                    raise SetupError("occupied", f"position() gave square {square} twice")
                placed[square] = rank
        return placed

    def view_positions(self, grid: list[list[int]]) -> None:
        """Duel's ``viewPositions``: the opponent's occupied setup squares (0/1 rows)."""

    def move(self, view: View) -> Move | Sequence[int]:
        raise NotImplementedError

    def tell_move(self, move: Move, public: Mapping) -> None:
        """The opponent's move and its public record (`MoveResult.to_public_dict`)."""

    def fight(self, fight: Fight) -> None:
        """A battle happened (this player's or the opponent's move): both ranks are public."""

    def finish(self, outcome: Outcome) -> None:
        """The game is over."""


# Duel's names of the ten pieces of the Duel army, in the order its GameManager asks
# `position` for them ("F"/"S": the first and second of a pair: FB and SB are the bombs).
DUEL_PIECE_NAMES: dict[str, int] = {
    "FL": FLAG,
    "FB": BOMB,
    "SB": BOMB,
    "MA": MARSHAL,
    "GE": GENERAL,
    "FM": MINER,
    "SM": MINER,
    "FS": SCOUT,
    "SS": SCOUT,
    "SP": SPY,
}


class DuelPlayer(Player):
    """A player in Duel's own shape, for the duel variant: `setup` asks
    ``position(name)`` once per name of `DUEL_PIECE_NAMES`, in Duel's order, and takes
    Duel's answer, ``(row, col)`` (a square int is accepted too). `pieces` then maps
    each name to the square it was placed on. The rest is `Player`'s interface: moves may be
    Duel's ``(row, col, direction, steps)``, and `fight` reports the two ranks (both
    Scouts are SCOUT; which one fought is told by the squares)."""

    def __init__(self) -> None:
        super().__init__()
        self.pieces: dict[str, int] = {}

    def position(self, piece: str) -> Sequence[int] | int:  # type: ignore[override]
        """Duel's ``position(String piece)``: where the piece named `piece` goes."""
        raise NotImplementedError("override position(name)")

    def setup(self) -> dict[int, int]:
        variant = self.variant
        assert variant is not None, "start() first"
        if dict(Counter(DUEL_PIECE_NAMES.values())) != variant.army_counts:
            raise ValueError(f"Duel's named pieces are the duel army, not {variant.name}'s")
        placed: dict[int, int] = {}
        self.pieces = {}
        for name, rank in DUEL_PIECE_NAMES.items():
            square = self._square(name, self.position(name))
            if square in placed:
                raise SetupError("occupied", f"position({name!r}) gave square {square} again")
            placed[square] = rank
            self.pieces[name] = square
        return placed

    def _square(self, name: str, answer: object) -> int:
        variant = self.variant
        assert variant is not None
        if isinstance(answer, int) and not isinstance(answer, bool):
            return answer
        if (
            isinstance(answer, Sequence)
            and len(answer) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in answer)
            and 0 <= answer[0] < variant.height
            and 0 <= answer[1] < variant.width
        ):
            return answer[0] * variant.width + answer[1]
        raise ValueError(f"position({name!r}) answered {answer!r}, not (row, col) on the board")


class RandomPlayer(Player):
    """A plausible random setup (the engine's generator) and a uniformly random legal move."""

    name = "random"

    def __init__(self, seed: int | None = None, rng: random.Random | None = None) -> None:
        super().__init__()
        self.rng = rng or random.Random(seed)

    def setup(self) -> dict[int, int]:
        assert self.variant is not None, "start() first"
        return generate_setup(self.variant, self.color, self.rng)

    def move(self, view: View) -> Move:
        src, dst = self.rng.choice(view.legal_moves)
        return Move(src, dst)


__all__ = [
    "DUEL_PIECE_NAMES",
    "DuelPlayer",
    "Fight",
    "Player",
    "RandomPlayer",
    "opponent_setup_grid",
    "duel_move",
]
