"""Whether the opponent opened a level's corner of bombs before its flag's wall: for each
game, the ply at which an enemy piece first struck a bomb of the corner (a back-row
corner square walled in by bombs in the level's setup), and the ply at which one first
struck a bomb of the flag's wall (docs/bots-rounds.md, "forty-fourth round").

usage: .venv/bin/python scripts/decoy_opened.py NAME DUMP [DUMP ...]

DUMP is the gzipped JSON that `--dump` of `python -m games.bots.tournament_cli` writes
(or its `.partial`); void games are left out. Prints, by result: how many games had a
corner of bombs, in how many the corner was struck, the wall struck, the corner first,
and how many enemy pieces died on the corner's bombs.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.dumps import recorded_games  # noqa: E402
from games.engine import BOMB, FLAG, MINER, Move  # noqa: E402


def corner_squares(game, color: int, setup: dict[int, int]) -> set[int]:
    """The corner square of `color`'s back row walled in by bombs, with its neighbours."""
    variant = game.variant
    width = variant.width
    for square in (0, width - 1, variant.size - width, variant.size - 1):
        if not variant.is_back_row(color, square) or setup.get(square) != BOMB:
            continue
        around = variant.neighbors[square]
        if all(setup.get(n) == BOMB for n in around):
            return {square, *around}
    return set()


def main(args: list[str]) -> int:
    if len(args) < 2:
        print(__doc__)
        return 2
    name, paths = args[0], args[1:]
    rows: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for record, me, game in recorded_games(name, paths):
        if record.get("void"):
            continue
        setup = {int(sq): rank for sq, rank in record["setups"][me].items()}
        corner = corner_squares(game, me, setup)
        flag = next(sq for sq, rank in setup.items() if rank == FLAG)
        wall = {n for n in game.variant.neighbors[flag] if setup.get(n) == BOMB}
        corner_ply = wall_ply = None
        died = 0
        for src, dst in record["moves"]:
            result = game.push(Move(src, dst))
            battle = result.battle
            if battle is None or result.color == me or battle.defender != BOMB:
                continue
            if dst in corner:
                corner_ply = corner_ply or result.ply
                died += battle.attacker != MINER  # only a Miner survives a bomb
            elif dst in wall:
                wall_ply = wall_ply or result.ply
        winner = record["outcome"].get("winner")  # the record's: a forfeit is not on the board
        key = "draw" if winner is None else "won" if winner == me else "lost"
        row = rows[key]
        row["games"] += 1
        if not corner:
            continue
        row["with a corner"] += 1
        row["corner struck"] += corner_ply is not None
        row["wall struck"] += wall_ply is not None
        first = corner_ply is not None and (wall_ply is None or corner_ply < wall_ply)
        row["corner first"] += first
        row["died on the corner"] += died
    keys = ("games", "with a corner", "corner struck", "wall struck", "corner first")
    print(f"{'result':8}" + "".join(f"{k:>20}" for k in (*keys, "died on the corner")))
    for result in ("won", "draw", "lost"):
        row = rows[result]
        print(f"{result:8}" + "".join(f"{row[k]:>20}" for k in (*keys, "died on the corner")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
