"""What `Game.push` changed, so that `Game.pop` can take the move back (for search).

One `Undo` per pushed move: the few fields a move changes, saved before it. Taking a move
back restores them exactly, so a search that pushes and pops sees the same positions, legal
moves and anti-stalling state as a game that was never searched (tests/engine/test_undo.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .pieces import Square

if TYPE_CHECKING:
    from .results import MoveResult, Outcome, Phase
    from .stalling import Chase, Run
    from .units import Unit


class UnitState(NamedTuple):
    square: Square
    army_index: int  # its place in its side's army list (the order moves are generated in),
    # looked up only when a battle may remove it (-1 for a quiet move)
    revealed: bool
    moved: bool
    scout_known: bool
    recent: tuple[Square, ...]


class Undo(NamedTuple):
    """A move's record. Only the moving side's entries of `last_by`, `hash_after` and `runs`
    change in a move, so only they are kept. `Game.push_generated` makes it as a plain tuple
    of these fields, and each UnitState as a plain tuple too (making NamedTuples at every
    node of a search cost more); for a quiet move, the target, its state and the captured
    lengths are None, and the mover's army index is -1."""

    mover: Unit
    mover_state: UnitState
    target: Unit | None
    target_state: UnitState | None
    captured_lengths: tuple[int, int] | None
    last_by: MoveResult | None  # the mover's side's
    hash_after: int | None  # the mover's side's
    run: Run | None  # the mover's side's
    chases: tuple[Chase | None, Chase | None]
    hash: int
    quiet_plies: int
    outcome: Outcome | None
    phase: Phase
