"""How each level lost its Marshal and General in a tournament's games, and where its
material went (docs/bots-rounds.md, "Results against DoI, third round" and "fourth round").

usage: .venv/bin/python scripts/big_losses.py DUMP [DUMP ...]

DUMP is the gzipped JSON that `--dump` of `python -m games.bots.tournament_cli` writes.
Every finished game is replayed from its setups; for each level the losses of its Marshal
and General are counted by what took them (a trade, or the enemy piece, hidden or known
before the battle) and by who attacked; then the worth it lost a game, on average, by who
attacked and whether the enemy piece was known, and how its Marshal first fought.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.dumps import load_records  # noqa: E402
from games.bots.losses import big_piece_losses, material_lost  # noqa: E402
from games.engine import Game, Move  # noqa: E402


def count(path: str) -> tuple[dict[str, Counter[str]], dict[str, Counter[str]], dict[str, int]]:
    losses: dict[str, Counter[str]] = {}
    material: dict[str, Counter[str]] = {}
    games: dict[str, int] = {}
    for record in load_records(path):
        setups = [{int(sq): rank for sq, rank in s.items()} for s in record["setups"]]
        game = Game.from_setups("classic", setups[0], setups[1])
        for src, dst in record["moves"]:
            game.push(Move(src, dst))
        for color, name in enumerate(record["names"]):
            losses.setdefault(name, Counter()).update(big_piece_losses(game, color))
            material.setdefault(name, Counter()).update(material_lost(game, color))
            games[name] = games.get(name, 0) + 1
    return losses, material, games


def main(paths: list[str]) -> int:
    if not paths:
        print(__doc__)
        return 2
    for path in paths:
        losses, material, games = count(path)
        print(path)
        for name, found in sorted(losses.items()):
            print(f"  {name} ({games[name]} games)")
            for what, n in sorted(found.items()):
                print(f"    {n:4d}  {what}")
            worth = {k: v for k, v in material[name].items() if not k.startswith("first")}
            print(f"    worth lost a game, by how: {sum(worth.values()) / games[name]:.1f}")
            for what, n in sorted(worth.items(), key=lambda item: -item[1]):
                print(f"    {n / games[name]:6.1f}  {what}")
            for what, n in material[name].most_common():
                if what.startswith("first"):
                    print(f"    {n:4d}  {what}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
