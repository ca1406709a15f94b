"""How well a level foresaw the danger of stepping next to a hidden enemy piece.

usage: .venv/bin/python scripts/approach_danger.py NAME DUMP [DUMP ...]

DUMP is the gzipped JSON that `--dump` of `python -m games.bots.tournament_cli` writes;
NAME the level counted (`hard` or `expert`). Every game is
replayed from its setups, with a fresh player of NAME's level watching each of its turns as
it did in play. For each quiet move of NAME's that ends next to a hidden enemy piece: the
chance, by NAME's beliefs just before the move, that the piece beats the mover (a draw
counts half), against whether it truly does; and whether the enemy piece then attacked at
once. By bands of the foreseen chance: how many such steps, the mean chance foreseen, the
share that truly beat the mover, the share struck at once, and the share struck at once of
those that truly beat the mover.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import get_player  # noqa: E402
from games.bots.dumps import recorded_games  # noqa: E402
from games.engine import ATTACKER, BOTH, IMMOVABLE, Move, resolve_battle  # noqa: E402
from games.engine.variants import CLASSIC  # noqa: E402

BANDS = (0.0, 0.05, 0.15, 0.3, 0.5, 0.75, 1.01)


def danger(probs: dict[int, float], rank: int, variant) -> float:
    chance = 0.0
    for enemy, p in probs.items():
        if enemy in IMMOVABLE:
            continue
        result = resolve_battle(enemy, rank, variant)
        chance += p if result == ATTACKER else p / 2 if result == BOTH else 0.0
    return chance


def collect(name: str, paths: list[str]) -> tuple[list[tuple[float, bool, bool]], int]:
    rows: list[tuple[float, bool, bool]] = []  # (foreseen, truly beats, struck at once)
    games = 0
    for record, me, game in recorded_games(name, paths):
        games += 1
        bot = get_player(name, seed=1)
        bot.start(me, CLASSIC)
        moves = record["moves"]
        for ply, (src, dst) in enumerate(moves):
            mover = game.board[src]
            if mover is None:
                break
            if mover.color == me:
                view = game.view(me)
                bot.tracker.observe(view)
                near = [
                    n
                    for n in game.variant.neighbors[dst]
                    if n != src
                    and game.board[n] is not None
                    and game.board[n].color != me
                    and not game.board[n].revealed
                ]
                if game.board[dst] is None and near:
                    beliefs = bot.beliefs(view)
                    reply = moves[ply + 1] if ply + 1 < len(moves) else None
                    for n in near:
                        enemy = game.board[n].rank
                        truly = enemy not in IMMOVABLE and resolve_battle(
                            enemy, mover.rank, game.variant
                        ) in (ATTACKER, BOTH)
                        struck = reply is not None and tuple(reply) == (n, dst)
                        rows.append(
                            (danger(beliefs.of(n), mover.rank, game.variant), truly, struck)
                        )
            game.push(Move(src, dst))
    return rows, games


def main(args: list[str]) -> int:
    if len(args) < 2:
        print(__doc__)
        return 2
    rows, games = collect(args[0], args[1:])
    print(f"{games} games of {args[0]}; {len(rows)} steps next to a hidden enemy piece")
    print("  foreseen    steps   mean foreseen   truly beat   struck at once   struck, if it beat")
    bands = defaultdict(list)
    for row in rows:
        band = next(i for i in range(len(BANDS) - 1) if row[0] < BANDS[i + 1])
        bands[band].append(row)
    for i in range(len(BANDS) - 1):
        found = bands.get(i, [])
        if not found:
            continue
        mean = sum(r[0] for r in found) / len(found)
        truly = sum(r[1] for r in found) / len(found)
        struck = sum(r[2] for r in found) / len(found)
        beaters = [r for r in found if r[1]]
        struck_beating = sum(r[2] for r in beaters) / len(beaters) if beaters else 0.0
        label = f"{BANDS[i]:.2f}-{min(BANDS[i + 1], 1.0):.2f}"
        print(
            f"  {label:<10s} {len(found):6d}   {mean:13.3f}   {truly:10.3f}   {struck:14.3f}"
            f"   {struck_beating:18.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
