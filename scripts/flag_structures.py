"""How long a level's flag stayed hidden among the places a structure-reading hunter counts.

usage: .venv/bin/python scripts/flag_structures.py NAME DUMP [DUMP ...]

DUMP is the gzipped JSON that `--dump` of `python -m games.bots.tournament_cli` writes.
Every game NAME played is replayed from its setups. Printed: the median number of
structures (`games.bots.structures`: still pieces on NAME's back rows among still
neighbours, each a place the flag may be) standing at plies 100, 200, 300 and 400 of the
games that lasted so long; the column NAME's flag stood in, over all games and over those
whose flag a Miner took; and the median ply at which the structures standing fell to
three or fewer, and to one.
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.dumps import recorded_games  # noqa: E402
from games.bots.evaluation import Position  # noqa: E402
from games.bots.losses import suffered  # noqa: E402
from games.bots.structures import structures  # noqa: E402
from games.engine import FLAG, Move  # noqa: E402

PLIES = (100, 200, 300, 400)


def main(argv: list[str]) -> None:
    if len(argv) < 3:
        sys.exit(__doc__)
    name, paths = argv[1], argv[2:]
    standing: dict[int, list[int]] = {ply: [] for ply in PLIES}
    columns, mined_columns = Counter(), Counter()
    fell_to: dict[int, list[int]] = {3: [], 1: []}
    games = 0
    for record, me, game in recorded_games(name, paths):
        games += 1
        flag = next(u.square for u in game.army[me] if u.rank == FLAG)
        column = flag % game.variant.width
        first: dict[int, int | None] = dict.fromkeys(fell_to)
        for ply, (src, dst) in enumerate(record["moves"], start=1):
            if game.outcome is not None:
                break
            game.push(Move(src, dst))
            if ply in standing or any(v is None for v in first.values()):
                count = len(structures(Position.from_view(game.view(me))))
                if ply in standing:
                    standing[ply].append(count)
                for level in fell_to:
                    if first[level] is None and count <= level:
                        first[level] = ply
        for level, ply in first.items():
            if ply is not None:
                fell_to[level].append(ply)
        columns[column] += 1
        if game.outcome is not None and suffered(game, me)["flag_by_miner"]:
            mined_columns[column] += 1
    print(f"{games} games of {name}")
    for ply, counts in standing.items():
        if counts:
            print(
                f"structures standing at ply {ply}: median {statistics.median(counts)} "
                f"({len(counts)} games)"
            )
    for level, plies in fell_to.items():
        if plies:
            print(
                f"{level} or fewer standing: in {len(plies)} games, "
                f"median ply {statistics.median(plies)}"
            )
    print("flag column: " + ", ".join(f"{c}: {n}" for c, n in sorted(columns.items())))
    print(
        "flag column where a Miner took it: "
        + ", ".join(f"{c}: {n}" for c, n in sorted(mined_columns.items()))
    )


if __name__ == "__main__":
    main(sys.argv)
