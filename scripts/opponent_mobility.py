"""How often an opponent moves its pieces of each rank, and what that says of its ranks.

usage: .venv/bin/python scripts/opponent_mobility.py NAME DUMP [DUMP ...]

An opponent that keeps most of its army still, as DoI and most people do, moves its
Marshal, General and Colonels far more than its Sergeants, Miners and Spy: a hidden piece
that has moved is then likely strong, one that has not likely weak. `adjust` below weighs
each hidden enemy piece's prior by the table `STILL_ARMY_MOVED` (measured by this script on
DoI's pieces), as far as the opponent moves as few of its pieces as DoI; it made expert's
beliefs fit DoI's ranks better (`scripts/belief_likelihood.py --mobility`) but did not win
more games, and is not in expert (docs/bots-rounds.md, "Results against DoI, sixth round").

DUMP is the gzipped JSON that `--dump` of `python -m games.bots.tournament_cli` writes;
NAME the player whose pieces are counted (`doi-l3`, `hard`, ...). Every 10th ply of every
game, each of NAME's pieces that its opponent cannot see the rank of (bombs and the flag
apart) is counted by rank and by whether it has moved, before ply 100, 250, 500 and after.
Prints the share that has moved, with how many pieces were counted, and the share of its
hidden movable pieces that have moved (`mobility.moved_share`), median by phase.
"""

from __future__ import annotations

import statistics
import sys
from bisect import bisect_right
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.dumps import recorded_games  # noqa: E402
from games.bots.knowledge import Probs, Tracker, hidden_counts  # noqa: E402
from games.engine import BOMB, FLAG, IMMOVABLE, RANK_NAMES, Move, View  # noqa: E402

PHASES = ("< 100", "< 250", "< 500", "500+")

# The share of an opponent's hidden pieces of each rank that have moved, before ply 100,
# 250, 500 and after (Demon of Ignorance, 43 games, printed by this script).
STILL_ARMY_PLIES = (100, 250, 500)
_BY_NAME = {
    "spy": (0.01, 0.03, 0.09, 0.08),
    "scout": (0.09, 0.15, 0.13, 0.15),
    "miner": (0.04, 0.12, 0.13, 0.12),
    "sergeant": (0.07, 0.09, 0.06, 0.14),
    "lieutenant": (0.08, 0.19, 0.21, 0.24),
    "captain": (0.09, 0.17, 0.23, 0.22),
    "major": (0.13, 0.22, 0.22, 0.24),
    "colonel": (0.15, 0.31, 0.29, 0.38),
    "general": (0.09, 0.44, 0.53, 0.37),
    "marshal": (0.07, 0.25, 0.53, 0.77),
}
STILL_ARMY_MOVED: dict[int, tuple[float, ...]] = {
    rank: _BY_NAME[name] for rank, name in RANK_NAMES.items() if name in _BY_NAME
}
FLOOR = 0.02
# How much of its movable hidden army the opponent has moved: up to STILL this share the
# table holds in full, from LOOSE on not at all (`hard` has moved about 0.7 by ply 250,
# DoI about 0.16).
STILL, LOOSE = 0.25, 0.5


def moved_share(view: View) -> float:
    """The share of the opponent's hidden movable pieces that have moved."""
    enemy = 1 - view.viewer
    counts = hidden_counts(view.game_variant(), view)
    hidden = [p for p in view.board if p and p.color == enemy and p.rank is None]
    movable = len(hidden) - counts.get(BOMB, 0) - counts.get(FLAG, 0)
    if movable <= 0:
        return 1.0
    return sum(1 for p in hidden if p.moved) / movable


def adjust(view: View, tracker: Tracker | None, weights: dict[int, Probs]) -> None:
    """Reweigh `weights` (square -> rank -> prior weight) in place; see the module docstring."""
    share = moved_share(view)
    trust = min(1.0, max(0.0, (LOOSE - share) / (LOOSE - STILL)))
    if trust <= 0.0:
        return
    phase = bisect_right(STILL_ARMY_PLIES, view.ply)
    for square, row in weights.items():
        if len(row) < 2:
            continue
        moved = view.board[square].moved  # type: ignore[union-attr]
        for rank in row:
            if rank in IMMOVABLE:
                continue
            table = STILL_ARMY_MOVED.get(rank)
            p = share if table is None else trust * table[phase] + (1 - trust) * share
            p = min(1 - FLOOR, max(FLOOR, p))
            row[rank] *= p if moved else 1 - p


def count(name: str, paths: list[str]):
    seen: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])  # counted, moved
    shares: dict[int, list[float]] = defaultdict(list)
    for record, them, game in recorded_games(name, paths):
        for ply, (src, dst) in enumerate(record["moves"]):
            if ply % 10 == 0:
                phase = bisect_right(STILL_ARMY_PLIES, ply)
                view = game.view(1 - them)
                shares[phase].append(moved_share(view))
                for square, piece in enumerate(view.board):
                    if piece is None or piece.color != them or piece.rank is not None:
                        continue
                    rank = game.board[square].rank  # type: ignore[union-attr]
                    if rank in (BOMB, FLAG):
                        continue
                    row = seen[(phase, rank)]
                    row[0] += 1
                    row[1] += piece.moved
            game.push(Move(src, dst))
    return seen, shares


def main(args: list[str]) -> int:
    if len(args) < 2:
        print(__doc__)
        return 2
    seen, shares = count(args[0], args[1:])
    print(f"{'rank':12s}" + "".join(f"{p:>14s}" for p in PHASES))
    for rank in sorted({rank for _, rank in seen}):
        cells = []
        for phase in range(len(PHASES)):
            counted, moved = seen.get((phase, rank), (0, 0))
            cells.append(f"{moved / max(1, counted):6.2f} ({counted:5d})")
        print(f"{RANK_NAMES[rank]:12s}" + "".join(f"{c:>14s}" for c in cells))
    medians = [
        f"{statistics.median(shares[p]):14.2f}" if shares[p] else f"{'-':>14s}" for p in range(4)
    ]
    print(f"{'moved share':12s}" + "".join(medians))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
