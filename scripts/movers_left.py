"""What a level had left to move when it lost: the movable pieces of both sides at the end
of each game the level lost, by how the game ended (docs/bots-rounds.md, "fortieth round").

usage: .venv/bin/python scripts/movers_left.py NAME DUMP [DUMP ...]

DUMP is the gzipped JSON that `--dump` of `python -m games.bots.tournament_cli` writes;
every game NAME lost is replayed from its setups (void games left out). Prints the games
lost by ending, the median movable pieces of NAME and of its opponent at the end, and in
how many losses NAME had FEW or fewer.
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.dumps import recorded_games  # noqa: E402
from games.engine import IMMOVABLE, Move  # noqa: E402

FEW = 3


def main(args: list[str]) -> int:
    if len(args) < 2:
        print(__doc__)
        return 2
    name, paths = args[0], args[1:]
    endings: Counter[str] = Counter()
    ours: list[int] = []
    theirs: list[int] = []
    for record, me, game in recorded_games(name, paths):
        if record.get("void"):
            continue
        for src, dst in record["moves"]:
            game.push(Move(src, dst))
        outcome = game.outcome
        if outcome is None or outcome.winner is None or outcome.winner == me:
            continue
        endings[str(outcome.termination)] += 1
        movers = [sum(u.rank not in IMMOVABLE for u in game.army[c]) for c in (me, 1 - me)]
        ours.append(movers[0])
        theirs.append(movers[1])
    if not ours:
        print(f"{name} lost no game in these dumps")
        return 0
    print(f"{len(ours)} games lost by {name}: " + ", ".join(f"{k} {v}" for k, v in endings.items()))
    print(
        f"movable pieces at the end, median: {name} {statistics.median(ours)}, "
        f"opponent {statistics.median(theirs)}"
    )
    print(
        f"losses with {FEW} or fewer movable pieces of {name}'s left: {sum(n <= FEW for n in ours)}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
