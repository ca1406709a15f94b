"""How well a level foresaw the danger of a hidden enemy piece beside one of its own.

usage: .venv/bin/python scripts/approach_danger.py NAME DUMP [DUMP ...]

DUMP is the gzipped JSON that `--dump` of `python -m games.bots.tournament_cli` writes;
NAME the level counted (`hard` or `expert`). Every game is replayed from its setups, with
a fresh player of NAME's level watching each of its turns as it did in play. Four tables:
NAME's quiet moves that end next to a hidden enemy piece; and the hidden enemy pieces
that stepped next to a piece of NAME's, hidden and moved, hidden and never moved, or
shown. In each, the chance, by NAME's beliefs at that turn, that the enemy piece beats
NAME's (a draw counts half), against whether it truly does (or trades); and whether the
battle came at once (the enemy attacked; NAME attacked). By bands of the foreseen chance:
how many, the mean chance foreseen, the share that truly beat NAME's piece, the share
where the battle came at once, and that share among those that truly beat it.
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


Row = tuple[float, bool, bool]  # (chance foreseen, truly beats, the battle came at once)
TABLES = {
    "our step": "NAME's steps next to a hidden enemy piece (struck: the enemy attacked at once)",
    "their step, moved": "hidden enemy pieces that stepped next to a hidden piece of NAME's"
    " that had moved (struck: NAME attacked it at once)",
    "their step, still": "hidden enemy pieces that stepped next to a hidden piece of NAME's"
    " that had never moved (struck: NAME attacked it at once)",
    "their step, shown": "hidden enemy pieces that stepped next to a shown piece of NAME's"
    " (struck: NAME attacked it at once)",
}


def beats(enemy: int, rank: int, variant) -> bool:
    """Whether `enemy` beats (or trades with) `rank` when either attacks."""
    return enemy not in IMMOVABLE and resolve_battle(enemy, rank, variant) in (ATTACKER, BOTH)


def danger(probs: dict[int, float], rank: int, variant) -> float:
    chance = 0.0
    for enemy, p in probs.items():
        if enemy in IMMOVABLE:
            continue
        result = resolve_battle(enemy, rank, variant)
        chance += p if result == ATTACKER else p / 2 if result == BOTH else 0.0
    return chance


def collect(name: str, paths: list[str]) -> tuple[dict[str, list[Row]], int]:
    """The rows of each table: NAME's steps next to hidden enemy pieces ("ours"), and the
    hidden enemy pieces that stepped next to NAME's hidden or shown pieces."""
    tables: dict[str, list[Row]] = {key: [] for key in TABLES}
    games = 0
    for record, me, game in recorded_games(name, paths):
        games += 1
        bot = get_player(name, seed=1)
        bot.start(me, CLASSIC)
        moves = record["moves"]
        near = game.variant.neighbors
        for ply, (src, dst) in enumerate(moves):
            mover = game.board[src]
            if mover is None:
                break
            if mover.color != me:
                game.push(Move(src, dst))
                continue
            view = game.view(me)
            bot.tracker.observe(view)
            beliefs = None
            # a hidden enemy piece that has just stepped next to ours
            if ply:
                e_src, e_dst = moves[ply - 1]
                enemy = game.board[e_dst]
                if enemy is not None and enemy.color != me and not enemy.revealed:
                    for n in near[e_dst]:
                        ours = game.board[n]
                        if n == e_src or ours is None or ours.color != me:
                            continue
                        if ours.rank in IMMOVABLE:
                            continue
                        beliefs = beliefs or bot.beliefs(view)
                        table = (
                            "their step, shown"
                            if ours.revealed
                            else "their step, moved"
                            if ours.moved
                            else "their step, still"
                        )
                        tables[table].append(
                            (
                                danger(beliefs.of(e_dst), ours.rank, game.variant),
                                beats(enemy.rank, ours.rank, game.variant),
                                (src, dst) == (n, e_dst),
                            )
                        )
            steps_to = [
                n
                for n in near[dst]
                if n != src
                and game.board[n] is not None
                and game.board[n].color != me
                and not game.board[n].revealed
            ]
            if game.board[dst] is None and steps_to:
                beliefs = beliefs or bot.beliefs(view)
                reply = moves[ply + 1] if ply + 1 < len(moves) else None
                for n in steps_to:
                    tables["our step"].append(
                        (
                            danger(beliefs.of(n), mover.rank, game.variant),
                            beats(game.board[n].rank, mover.rank, game.variant),
                            reply is not None and tuple(reply) == (n, dst),
                        )
                    )
            game.push(Move(src, dst))
    return tables, games


def main(args: list[str]) -> int:
    if len(args) < 2:
        print(__doc__)
        return 2
    tables, games = collect(args[0], args[1:])
    print(f"{games} games of {args[0]}")
    for key, title in TABLES.items():
        rows = tables[key]
        print(f"{title.replace('NAME', args[0])}: {len(rows)}")
        print(
            "  foreseen    steps   mean foreseen   truly beat   struck at once   struck, if it beat"
        )
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
