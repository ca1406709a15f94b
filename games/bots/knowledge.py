"""What a bot believes about the enemy's hidden pieces, built only from its `View`.

The facts come from the view: where each enemy piece stands, which moved (so it is no bomb
or flag), which moved like a scout, which ranks battles revealed and which pieces were
captured. From the army's counts the bot knows how many of each rank are still hidden.
`Beliefs` turns these into a probability for every (hidden piece, rank) pair whose rows sum
to 1 and whose columns sum to the hidden counts, by iterative proportional fitting of prior
weights (a flag rather on the back row, a piece that walked up to a revealed piece of ours
rather stronger than it, one that ran away rather weaker).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from games.engine import BOMB, FLAG, IMMOVABLE, MARSHAL, SCOUT, SPY, Variant, View

Probs = dict[int, float]  # rank -> probability


@dataclass
class Behaviour:
    """What an enemy piece's moves suggest (bluffs happen: these are only weights)."""

    above: int = 0  # it walked up to our revealed piece of this rank: likely stronger
    below: int = 99  # it ran from our revealed piece of this rank: likely weaker


@dataclass
class Beliefs:
    """Probabilities of the ranks of every enemy piece, keyed by square."""

    variant: Variant
    color: int
    probs: dict[int, Probs] = field(default_factory=dict)
    hidden_counts: dict[int, int] = field(default_factory=dict)

    def of(self, square: int) -> Probs:
        return self.probs[square]

    def p(self, square: int, rank: int) -> float:
        return self.probs[square].get(rank, 0.0)

    def can_move(self, square: int) -> float:
        probs = self.probs[square]
        return 1.0 - probs.get(BOMB, 0.0) - probs.get(FLAG, 0.0)

    def enemy_alive(self, rank: int) -> bool:
        return any(probs.get(rank, 0.0) > 0.0 for probs in self.probs.values())


class Tracker:
    """Follows enemy pieces from move to move to remember how they behaved."""

    def __init__(self) -> None:
        self.notes: dict[int, Behaviour] = {}
        self.last_ply_seen = -1

    def observe(self, view: View) -> None:
        """Read the opponent's last move from the view: carry its notes and learn from it."""
        last = view.last_move
        if last is None or last.ply == self.last_ply_seen:
            return
        self.last_ply_seen = last.ply
        if last.color == view.viewer:
            return
        src, dst = last.move
        note = self.notes.pop(src, Behaviour())
        if last.battle is None:
            self._learn(view, note, src, dst)
        self.notes[dst] = note
        self._prune(view)

    def _learn(self, view: View, note: Behaviour, src: int, dst: int) -> None:
        neighbours = view.game_variant().neighbors
        for square in neighbours[dst]:
            piece = view.board[square]
            if (
                piece
                and piece.color == view.viewer
                and piece.revealed
                and piece.rank not in IMMOVABLE
            ):
                note.above = max(note.above, piece.rank or 0)
        for square in neighbours[src] - neighbours[dst]:
            piece = view.board[square]
            if (
                piece
                and piece.color == view.viewer
                and piece.revealed
                and piece.rank not in IMMOVABLE
            ):
                note.below = min(note.below, piece.rank or 99)

    def _prune(self, view: View) -> None:
        for square in list(self.notes):
            piece = view.board[square]
            if piece is None or piece.color == view.viewer:
                del self.notes[square]


def hidden_counts(variant: Variant, view: View) -> dict[int, int]:
    """How many of each enemy rank are neither captured nor revealed on the board."""
    enemy = 1 - view.viewer
    counts = dict(variant.army_counts)
    for rank in view.captured[enemy]:
        counts[rank] -= 1
    for piece in view.board:
        if piece and piece.color == enemy and piece.rank is not None:
            counts[piece.rank] -= 1
    return {rank: n for rank, n in counts.items() if n > 0}


def prior(
    variant: Variant,
    color: int,
    square: int,
    moved: bool,
    scout: bool,
    counts: dict[int, int],
    note: Behaviour | None,
) -> Probs:
    """Unnormalized weights of the ranks a hidden enemy piece on `square` may have."""
    if scout:
        return {SCOUT: 1.0} if counts.get(SCOUT) else {}
    enemy = 1 - color
    depth = variant.depth(enemy, square)
    weights: Probs = {}
    for rank in counts:
        if moved and rank in IMMOVABLE:
            continue
        weight = 1.0
        if rank == FLAG:
            weight = _flag_weight(variant, depth)
        elif rank == BOMB:
            weight = 0.6 if depth == variant.setup_rows - 1 else 1.0
        if note is not None:
            weight *= _behaviour_weight(rank, note)
        if weight > 0:
            weights[rank] = weight
    return weights


def _flag_weight(variant: Variant, depth: int) -> float:
    if depth == 0:
        return 4.0
    if variant.flag_on_back_row or depth >= variant.setup_rows:
        return 0.0
    return 1.0 / (1 + 2 * depth)


def _behaviour_weight(rank: int, note: Behaviour) -> float:
    weight = 1.0
    if note.above:
        weight *= (
            3.0 if rank > note.above else (2.0 if rank == SPY and note.above == MARSHAL else 0.5)
        )
    if note.below < 99:
        weight *= 2.0 if rank < note.below else 0.5
    return weight


def fit(weights: dict[int, Probs], counts: dict[int, int], rounds: int = 25) -> dict[int, Probs]:
    """Iterative proportional fitting: rows sum to 1, column `r` sums to counts[r]."""
    probs = {sq: dict(w) for sq, w in weights.items()}
    for _ in range(rounds):
        totals: dict[int, float] = {}
        for row in probs.values():
            for rank, value in row.items():
                totals[rank] = totals.get(rank, 0.0) + value
        for row in probs.values():
            for rank in row:
                if totals[rank] > 0:
                    row[rank] *= counts.get(rank, 0) / totals[rank]
            _normalize(row)
    return probs


def _normalize(row: Probs) -> None:
    total = sum(row.values())
    if total <= 0:
        return
    for rank in row:
        row[rank] /= total


# How a flag is usually hidden (the engine's generator, `hard` and most people): on its
# back row, walled in by bombs. A neighbour that has moved is no bomb, an empty one was
# left or cleared, a bomb shown next to it is a wall: the flag weight of an unmoved piece
# is multiplied by these per neighbour inside its owner's setup area.
FLAG_BESIDE_MOVED = 0.1
FLAG_BESIDE_EMPTY = 0.3
FLAG_BESIDE_BOMB = 3.0


def flag_walls(view: View, variant: Variant, square: int) -> float:
    """How much the neighbours of an unmoved enemy piece look like the bombs around a flag."""
    enemy = 1 - view.viewer
    factor = 1.0
    for near in variant.neighbors[square]:
        if not variant.is_setup_square(enemy, near):
            continue
        piece = view.board[near]
        if piece is None or piece.color != enemy:
            factor *= FLAG_BESIDE_EMPTY
        elif piece.rank == BOMB:
            factor *= FLAG_BESIDE_BOMB
        elif piece.moved:
            factor *= FLAG_BESIDE_MOVED
    return factor


Adjust = Callable[[View, "Tracker | None", dict[int, Probs]], None]


def build_beliefs(
    view: View,
    tracker: Tracker | None = None,
    use_behaviour: bool = True,
    flag_structure: bool = False,
    adjust: Adjust | None = None,
) -> Beliefs:
    """Beliefs about every enemy piece on the board, from the view (and the tracker's notes).
    `flag_structure` (expert): a flag is rather where bombs may wall it in (`flag_walls`).
    `adjust` (expert) may reweigh the rows of prior weights before they are fitted."""
    variant = view.game_variant()
    enemy = 1 - view.viewer
    counts = hidden_counts(variant, view)
    weights: dict[int, Probs] = {}
    known: dict[int, Probs] = {}
    for square, piece in enumerate(view.board):
        if piece is None or piece.color != enemy:
            continue
        if piece.rank is not None:
            known[square] = {piece.rank: 1.0}
            continue
        note = tracker.notes.get(square) if (tracker and use_behaviour) else None
        row = prior(variant, view.viewer, square, piece.moved, piece.scout, counts, note)
        if flag_structure and FLAG in row:
            row[FLAG] *= flag_walls(view, variant, square)
        weights[square] = row or {
            rank: 1.0 for rank in counts if not (piece.moved and rank in IMMOVABLE)
        }
    if adjust is not None:
        adjust(view, tracker, weights)
    probs = fit(weights, counts)
    probs.update(known)
    return Beliefs(variant, view.viewer, probs, counts)
