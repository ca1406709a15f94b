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

from games.engine import (
    ATTACKER,
    BOMB,
    FLAG,
    GENERAL,
    IMMOVABLE,
    MARSHAL,
    SCOUT,
    SPY,
    Variant,
    View,
)
from games.engine.results import MoveResult

Probs = dict[int, float]  # rank -> probability

# A piece that walked up to a hidden piece of ours that has moved beats it about twice as
# often as the count of ranks says (docs/bots-rounds.md); not more: some of those steps
# are probes and bluffs.
STALKER_STRONGER = 2.0
STALKER_WEAKER = 0.7


@dataclass
class Behaviour:
    """What an enemy piece's moves suggest (bluffs happen: these are only weights)."""

    above: int = 0  # it walked up to our revealed piece of this rank: likely stronger
    below: int = 99  # it ran from our revealed piece of this rank: likely weaker
    # it walked up to a hidden piece of ours that has moved, of this rank (the weakest if
    # several): a program that reads our moves attacks what it has read as weaker
    stalked: int = 0


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
        # Where each enemy piece on the board started (square -> setup square), once the
        # tracker has seen the game from its first moves; None until then, or for good if
        # it joined a game under way (then only an unmoved piece's start is known).
        self.origins: dict[int, int] | None = None
        self.shown: dict[int, int] = {}  # setup square -> the rank its piece showed
        self.movers: set[int] = set()  # setup squares whose piece has moved
        self._captured = 0  # enemy pieces captured when the tracker last looked
        self._joined_late = False

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
        self._follow(view, last)

    def origin(self, view: View, square: int) -> int | None:
        """The setup square the enemy piece on `square` started on, if known."""
        piece = view.board[square]
        if piece is None or not piece.moved:
            return square
        return self.origins.get(square) if self.origins is not None else None

    def _follow(self, view: View, last: MoveResult) -> None:
        """Carry the start squares along the opponent's move and note what it showed."""
        enemy = 1 - view.viewer
        src, dst = last.move
        captured = len(view.captured[enemy])
        if self.origins is None:
            if last.ply > 2:
                self.origins = {}
                self._joined_late = True
            else:  # the opponent's first move: every other piece stands where it started
                self.origins = {sq: sq for sq, p in enumerate(view.board) if p and p.color == enemy}
                self.origins.pop(dst, None)
                self._joined_late = False
                self._captured = captured - (
                    1 if last.battle and last.battle.result != ATTACKER else 0
                )
                self.origins[src] = src
        if self._joined_late:
            return
        start = self.origins.pop(src, src)
        self.movers.add(start)
        died = 0
        if last.battle is not None:
            self.shown[start] = last.battle.attacker
            if last.battle.result == ATTACKER:
                self.origins[dst] = start
            else:
                died = 1
        else:
            self.origins[dst] = start
        # a piece we attacked since the last look and that died: what it was is the one
        # new capture the opponent's own battle does not explain
        gone = [sq for sq in self.origins if not _is_enemy(view, sq, enemy)]
        new = view.captured[enemy][self._captured : captured - died]
        if len(gone) == 1 and len(new) == 1:
            self.shown[self.origins[gone[0]]] = new[0]
        for sq in gone:
            del self.origins[sq]
        self._captured = captured
        for sq, piece in enumerate(view.board):
            if piece is None or piece.color != enemy:
                continue
            start = self.origins.setdefault(sq, sq)
            if piece.rank is not None:
                self.shown[start] = piece.rank
            elif piece.scout:
                self.shown[start] = SCOUT

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
            elif (
                piece
                and piece.color == view.viewer
                and not piece.revealed
                and piece.moved
                and piece.rank is not None
                and piece.rank < GENERAL
            ):
                note.stalked = min(note.stalked or piece.rank, piece.rank)
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


def _is_enemy(view: View, square: int, enemy: int) -> bool:
    piece = view.board[square]
    return piece is not None and piece.color == enemy


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


def origin_row(table: Probs, moved: bool, counts: dict[int, int], note: Behaviour | None) -> Probs:
    """`prior`'s weights, but from the odds of each rank on the piece's setup square."""
    weights: Probs = {}
    for rank in counts:
        if moved and rank in IMMOVABLE:
            continue
        weight = table.get(rank, 0.0)
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
    if note.stalked > note.above:
        weight *= STALKER_STRONGER if rank > note.stalked else STALKER_WEAKER
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
OriginPrior = Callable[[int], "Probs | None"]  # setup square -> odds of each rank


def build_beliefs(
    view: View,
    tracker: Tracker | None = None,
    use_behaviour: bool = True,
    flag_structure: bool = False,
    adjust: Adjust | None = None,
    origin_prior: OriginPrior | None = None,
) -> Beliefs:
    """Beliefs about every enemy piece on the board, from the view (and the tracker's notes).
    `flag_structure` (expert): a flag is rather where bombs may wall it in (`flag_walls`).
    `adjust` (expert) may reweigh the rows of prior weights before they are fitted.
    `origin_prior` (expert) gives the odds of each rank for a piece by the setup square it
    started on, where the tracker knows it; it replaces `prior`'s square-by-depth weights."""
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
        start = tracker.origin(view, square) if tracker else square
        table = (
            origin_prior(start)
            if origin_prior is not None and start is not None and not piece.scout
            else None
        )
        if table is not None:
            row = origin_row(table, piece.moved, counts, note)
        else:
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
