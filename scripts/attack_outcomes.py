"""How each side's attacks ended, in recorded games.

usage: .venv/bin/python scripts/attack_outcomes.py NAME DUMP [DUMP ...]

DUMP is the gzipped JSON that `--dump` of `python -m games.bots.tournament_cli` writes;
NAME the level counted (`expert`). Every game is replayed from its setups. Each attack on
a movable piece, by each side, sorted by what the attacker could know of the defender
just before: "shown" (its rank seen in an earlier battle), "moved" (hidden, had moved) or
"still" (hidden, never moved); then how it ended (won, lost, both pieces off) and the
worth it won or lost for the attacker, a game (`evaluation.BASE_VALUES`). Attacks on
bombs and flags are counted apart. Last, the attacks lost, by the attacker's rank.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.dumps import recorded_games  # noqa: E402
from games.bots.evaluation import BASE_VALUES  # noqa: E402
from games.engine import ATTACKER, BOTH, DEFENDER, IMMOVABLE, RANK_NAMES, Move  # noqa: E402

ENDS = {ATTACKER: "won", DEFENDER: "lost", BOTH: "both"}
KNOWN = ("shown", "moved", "still")


def gain(attacker: int, defender: int, result: int) -> float:
    """The worth the attacker's side won (positive) or lost in the battle."""
    won = BASE_VALUES[defender] if result in (ATTACKER, BOTH) else 0.0
    lost = BASE_VALUES[attacker] if result in (DEFENDER, BOTH) else 0.0
    return won - lost


def count(name: str, paths: list[str]) -> tuple[Counter, Counter, Counter, int]:
    attacks: Counter = Counter()  # (side, known, end)
    worth: Counter = Counter()
    lost_by: Counter = Counter()  # (side, attacker rank) of the attacks lost
    games = 0
    for record, me, game in recorded_games(name, paths):
        games += 1
        for src, dst in record["moves"]:
            mover, target = game.board[src], game.board[dst]
            if mover is None:
                break
            if target is None:
                game.push(Move(src, dst))
                continue
            if target.rank in IMMOVABLE:
                known = "bomb or flag"
            elif target.revealed:
                known = "shown"
            else:
                known = "moved" if target.moved else "still"
            side = "ours" if mover.color == me else "theirs"
            attacker, defender = mover.rank, target.rank
            battle = game.push(Move(src, dst)).battle
            if battle is None:
                continue
            end = ENDS[battle.result]
            attacks[side, known, end] += 1
            worth[side, known, end] += gain(attacker, defender, battle.result)
            if end == "lost" and known != "bomb or flag":
                lost_by[side, RANK_NAMES[attacker]] += 1
    return attacks, worth, lost_by, games


def main(args: list[str]) -> int:
    if len(args) < 2:
        print(__doc__)
        return 2
    attacks, worth, lost_by, games = count(args[0], args[1:])
    per = max(1, games)
    print(f"{games} games of {args[0]}; attacks, and the worth they won a game")
    for side, label in (("ours", f"{args[0]}'s attacks"), ("theirs", "the opponent's")):
        total = sum(n for key, n in attacks.items() if key[0] == side)
        net = sum(w for key, w in worth.items() if key[0] == side) / per
        print(f"{label}: {total} ({total / per:.1f} a game), net {net:+.1f} a game")
        for known in (*KNOWN, "bomb or flag"):
            ends = [(end, attacks[side, known, end]) for end in ENDS.values()]
            n = sum(count for _, count in ends)
            if not n:
                continue
            net = sum(worth[side, known, end] for end in ENDS.values()) / per
            shares = ", ".join(f"{end} {count} ({100 * count / n:.0f}%)" for end, count in ends)
            print(f"  on {known:<12s} {n:5d}: {shares}; net {net:+.1f}")
        losers = sorted(((n, rank) for (s, rank), n in lost_by.items() if s == side), reverse=True)
        print("  attacks lost, by the attacker: " + ", ".join(f"{r} {n}" for n, r in losers))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
