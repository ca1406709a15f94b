"""How right a level's Spy beliefs were about the hidden pieces its Marshal stepped next to.

usage: .venv/bin/python scripts/marshal_neighbours.py NAME DUMP [DUMP ...]

DUMP is the gzipped JSON that `--dump` of `python -m games.bots.tournament_cli` writes;
NAME the level counted (`expert`, `hard`: both read the same beliefs). Every game is
replayed from its setups; at each move of NAME's Marshal while the enemy Spy lives, the
beliefs are built as `expert` builds them, and for each hidden enemy piece next to where
the Marshal went (not the one it attacked) the chance they gave the Spy is set beside
whether it was the Spy: by whether that piece had moved, and whether our Marshal was known.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import suspicion  # noqa: E402
from games.bots.dumps import recorded_games  # noqa: E402
from games.bots.knowledge import Tracker, build_beliefs  # noqa: E402
from games.engine import MARSHAL, SPY, Move  # noqa: E402


def count(name: str, paths: list[str]) -> dict[str, list[float]]:
    """group -> [pieces, sum of the Spy chances given, pieces that were the Spy]"""
    rows: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0])
    for record, me, game in recorded_games(name, paths):
        tracker = Tracker()
        neighbours = game.variant.neighbors
        for src, dst in record["moves"]:
            if game.outcome is not None:
                break
            if game.turn == me:
                view = game.view(me)
                tracker.observe(view)
                mover = game.board[src]
                spy_lives = any(u.rank == SPY for u in game.army[1 - me])
                if mover is not None and mover.rank == MARSHAL and spy_lives:
                    near = [
                        n
                        for n in neighbours[dst]
                        if n not in (src, dst)
                        and (piece := view.board[n]) is not None
                        and piece.color != me
                        and piece.rank is None
                    ]
                    if near:
                        beliefs = build_beliefs(
                            view, tracker, flag_structure=True, adjust=suspicion.adjust
                        )
                    for n in near:
                        unit = game.board[n]
                        group = (
                            f"{'moved' if unit.moved else 'never moved'}, "
                            f"our Marshal {'known' if mover.revealed else 'hidden'}"
                        )
                        for key in ("all", group):
                            row = rows[key]
                            row[0] += 1
                            row[1] += beliefs.p(n, SPY)
                            row[2] += unit.rank == SPY
            game.push(Move(src, dst))
    return rows


def main(args: list[str]) -> int:
    if len(args) < 2:
        print(__doc__)
        return 2
    rows = count(args[0], args[1:])
    print("hidden pieces next to where our Marshal stepped: pieces, Spy chance said, were the Spy")
    for key, (n, said, were) in sorted(rows.items()):
        print(f"  {key:32s} {int(n):5d}  {said / n:6.3f}  {were / n:6.3f} ({int(were)})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
