"""Who was ahead when the Marshals were traded, and how those games ended.

usage: .venv/bin/python scripts/trade_leads.py NAME DUMP [DUMP ...]

DUMP is the gzipped JSON that `--dump` of `python -m games.bots.tournament_cli` writes.
Every recorded game of NAME is replayed from its setups; at the battle in which the two
Marshals took each other, NAME's material lead (`material_lead`: the worth of its
movable pieces alive less the enemy's, over both) is read from NAME's view just before it.
The trades are counted by that lead and by who attacked, with NAME's results.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.dumps import recorded_games  # noqa: E402
from games.bots.evaluation import BASE_VALUES  # noqa: E402
from games.engine import IMMOVABLE, MARSHAL, Move, Variant, View  # noqa: E402

EVEN = 0.05  # a lead smaller than this either way counts as even


def material_lead(variant: Variant, view: View) -> float:
    """(ours - theirs) / (ours + theirs), over the worths of the movable pieces alive: every
    battle shows both ranks, so the viewer knows which enemy pieces live, if not where."""
    me, enemy = view.viewer, 1 - view.viewer
    ours = sum(
        BASE_VALUES[p.rank] for p in view.board if p and p.color == me and p.rank not in IMMOVABLE
    )
    alive = dict(variant.army_counts)
    for rank in view.captured[enemy]:
        alive[rank] -= 1
    theirs = sum(BASE_VALUES[r] * n for r, n in alive.items() if r not in IMMOVABLE)
    total = ours + theirs
    return (ours - theirs) / total if total else 0.0


def bucket(lead: float) -> str:
    if lead <= -EVEN:
        return "behind"
    return "ahead" if lead >= EVEN else "even"


def result(record: dict, me: int) -> str:
    winner = (record.get("outcome") or {}).get("winner")
    if winner is None:
        return "draw"
    return "won" if winner == me else "lost"


def count(name: str, paths: list[str]) -> tuple[Counter, Counter, int]:
    trades: Counter = Counter()
    others: Counter = Counter()
    games = 0
    for record, me, game in recorded_games(name, paths):
        if record.get("void") or not record.get("outcome"):
            continue
        games += 1
        found = None
        for src, dst in record["moves"]:
            attacker, defender = game.board[src], game.board[dst]
            if (
                attacker is not None
                and defender is not None
                and attacker.rank == MARSHAL
                and defender.rank == MARSHAL
            ):
                lead = material_lead(game.variant, game.view(me))
                who = "we attacked" if attacker.color == me else "they attacked"
                found = (bucket(lead), who)
            game.push(Move(src, dst))
            if found:
                break
        if found:
            trades[found + (result(record, me),)] += 1
        else:
            others[result(record, me)] += 1
    return trades, others, games


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__)
        return 2
    trades, others, games = count(argv[0], argv[1:])
    print(f"{games} games of {argv[0]}, {sum(trades.values())} with the Marshals traded")
    for lead in ("behind", "even", "ahead"):
        for who in ("they attacked", "we attacked"):
            row = {r: trades[(lead, who, r)] for r in ("won", "draw", "lost")}
            if any(row.values()):
                print(
                    f"  {lead:6s} {who:14s} won {row['won']:3d} draw {row['draw']:3d} "
                    f"lost {row['lost']:3d}"
                )
    print(f"  no trade: won {others['won']} draw {others['draw']} lost {others['lost']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
