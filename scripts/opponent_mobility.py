"""How often an opponent moves its pieces of each rank: the table of `games.bots.mobility`.

usage: .venv/bin/python scripts/opponent_mobility.py NAME DUMP [DUMP ...]

DUMP is the gzipped JSON that `--dump` of `python -m games.bots.tournament_cli` writes;
NAME the player whose pieces are counted (`doi-l3`, `hard`, ...). Every 10th ply of every
game, each of NAME's pieces that its opponent cannot see the rank of (bombs and the flag
apart) is counted by rank and by whether it has moved, before ply 100, 250, 500 and after.
Prints the share that has moved, with how many pieces were counted, and the share of its
hidden movable pieces that have moved (`mobility.moved_share`), median by phase.
"""

from __future__ import annotations

import gzip
import json
import statistics
import sys
from bisect import bisect_right
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.mobility import STILL_ARMY_PLIES, moved_share  # noqa: E402
from games.engine import BOMB, FLAG, RANK_NAMES, Game, Move  # noqa: E402

PHASES = ("< 100", "< 250", "< 500", "500+")


def count(name: str, paths: list[str]):
    seen: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])  # counted, moved
    shares: dict[int, list[float]] = defaultdict(list)
    for path in paths:
        with gzip.open(path, "rt") as handle:
            records = json.load(handle)
        for record in records:
            if name not in record["names"]:
                continue
            them = record["names"].index(name)
            setups = [{int(sq): rank for sq, rank in s.items()} for s in record["setups"]]
            game = Game.from_setups("classic", setups[0], setups[1])
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
