"""The anti-stalling rules: ISF 10 (two squares), ISF 11 (more squares) and Duel's return rule.

Each side keeps one `Run` (its current back-and-forth) and at most one `Chase` (the chase it is
making). Both are small immutable records replaced on every move, so checking a move costs
the same at ply 2,000 as at ply 50. `docs/rules.md` gives the ISF text, where it is ambiguous
and what we decided.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .pieces import Square

Refusal = tuple[str, str]  # (code, reason a player understands)


class Run(NamedTuple):
    """A side's latest run of moves of one piece, back and forth along one line (ISF 10).

    A piece that moves one square at a time runs between two squares; a Scout's moves along
    one line count as moves between the same two squares, so `low..high` is the stretch of
    the line the run has covered."""

    unit: int  # the piece's id
    src: Square  # the run's latest move
    dst: Square
    count: int  # type: ignore[assignment]  # moves in the run so far (shadows tuple.count)
    low: Square
    high: Square

    @classmethod
    def start(cls, unit: int, src: Square, dst: Square) -> Run:
        return cls(unit, src, dst, 1, min(src, dst), max(src, dst))

    def continued_by(self, unit: int, src: Square, dst: Square, width: int) -> bool:
        """Whether this move of `unit` carries the run on: the same piece, from where the run
        left it, along the same line, either turning back or ending inside the stretch."""
        if unit != self.unit or src != self.dst:
            return False
        if _is_horizontal(self.src, self.dst, width) != _is_horizontal(src, dst, width):
            return False
        turns_back = (dst > src) != (self.dst > self.src)
        return turns_back or self.low <= dst <= self.high

    def then(self, unit: int, src: Square, dst: Square, width: int) -> Run:
        """The run after this move: carried on, or a new run of one move."""
        if not self.continued_by(unit, src, dst, width):
            return Run.start(unit, src, dst)
        return Run(
            unit, src, dst, self.count + 1, min(self.low, src, dst), max(self.high, src, dst)
        )

    def to_list(self) -> list[int]:
        return list(self)

    @classmethod
    def from_list(cls, data: Sequence[int]) -> Run:
        """Also reads the four-number runs saved before scouts' runs had a stretch."""
        unit, src, dst, count = data[:4]
        if len(data) == 4:
            return cls(unit, src, dst, count, min(src, dst), max(src, dst))
        return cls(unit, src, dst, count, data[4], data[5])


def _is_horizontal(src: Square, dst: Square, width: int) -> bool:
    return src // width == dst // width


def next_run(run: Run | None, unit: int, src: Square, dst: Square, width: int) -> Run:
    return Run.start(unit, src, dst) if run is None else run.then(unit, src, dst, width)


def two_squares_refusal(
    run: Run | None, limit: int | None, unit: int, src: Square, dst: Square, width: int
) -> Refusal | None:
    if limit and run is not None and run.count >= limit and run.continued_by(unit, src, dst, width):
        return (
            "two_squares",
            f"two-squares rule: a piece may not move more than {limit} times in a row between "
            "the same two squares (a Scout's moves along one line count as the same two squares)",
        )
    return None


@dataclass(frozen=True)
class Chase:
    """A continuous chase one side is making (ISF 11): the enemy pieces that evaded its threats
    and the positions (Zobrist hashes) that occurred during the chase, from the position after
    the threat that began it. Positions from before the chase are not in it."""

    evaders: frozenset[int]
    positions: frozenset[int]

    def evaded_by(self, unit: int) -> Chase:
        return Chase(self.evaders | {unit}, self.positions)

    def reached(self, position: int) -> Chase:
        return Chase(self.evaders, self.positions | {position})

    def to_dict(self) -> dict[str, list[int]]:
        return {"evaders": sorted(self.evaders), "positions": sorted(self.positions)}

    @classmethod
    def from_saved(cls, data: Mapping | Sequence) -> Chase:
        """Also reads the `[chaser, chased, positions]` lists saved before chases could have
        several chasers and evaders."""
        if isinstance(data, Mapping):
            return cls(frozenset(data["evaders"]), frozenset(data["positions"]))
        return cls(frozenset({data[1]}), frozenset(data[2]))


class ChaseStep(NamedTuple):
    """What a quiet move does to its side's chase: whether it is a chasing move (it threatens
    a piece that evaded during the chase) and the position it leads to."""

    chasing: bool
    position: int


def chase_targets(
    evader_squares: Iterable[Square], neighbors: Sequence[Iterable[Square]]
) -> frozenset[Square]:
    """The squares a chasing move goes to: next to an evader of the chase that still stands
    (a captured piece stands on square -1)."""
    squares: set[Square] = set()
    for square in evader_squares:
        if square >= 0:
            squares.update(neighbors[square])
    return frozenset(squares)


def more_squares_refusal(
    chase: Chase | None,
    step: ChaseStep,
    src: Square,
    dst: Square,
    own_last: tuple[Square, Square] | None,
) -> Refusal | None:
    """A chasing move may not recreate a position of its chase, except the chasing piece going
    straight back to the square it came from on its side's directly preceding turn."""
    if chase is None or not step.chasing or step.position not in chase.positions:
        return None
    if own_last is not None and own_last == (dst, src):
        return None
    return (
        "more_squares",
        "more-squares rule: this chasing move repeats a position of the chase",
    )


def is_evasion(
    threat: tuple[Square, bool] | None, src: Square, neighbors: Sequence[Iterable[Square]]
) -> bool:
    """Whether a quiet move from `src` evades the opponent's directly preceding move, given as
    (its destination, whether it was a battle): a quiet move next to the piece threatens it."""
    if threat is None:
        return False
    threat_square, was_battle = threat
    return not was_battle and src in neighbors[threat_square]


def return_refusal(limit: int | None, recent: tuple[Square, ...], dst: Square) -> Refusal | None:
    if limit and dst in recent:
        return (
            "return_too_soon",
            f"a piece may return to a square it left only after {limit} moves",
        )
    return None
