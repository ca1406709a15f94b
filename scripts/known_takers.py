"""What took a level's pieces in recorded games, and how its Spy was lost.

usage: .venv/bin/python scripts/known_takers.py NAME DUMP [DUMP ...]

DUMP is the gzipped JSON that `--dump` of `python -m games.bots.tournament_cli` writes;
NAME the level counted (`expert`). Every game is replayed from its setups. For each piece
of NAME's that an enemy piece attacked and took (no trade), the taker's rank, whether NAME
had seen its rank before (it had fought), and whether NAME still had a piece that beats
it (for a Marshal: a Spy); with the worth taken a game (`evaluation.BASE_VALUES`). Then,
per game, how NAME's Spy was lost: by an enemy piece NAME knew (telling apart the Spy that had
just stepped next to it), by another, or not at all; and how its Marshal was lost: to the
Spy (telling apart the Marshal that had just stepped next to it, and a Spy that had never
moved), traded with the enemy Marshal, on a bomb, or not at all.
Last, the pieces that the enemy's known Marshal or General took, by which of its Marshal,
Spy and General NAME still had after the capture (a known enemy piece that eats while our Marshal
lives is one our Marshal could have stopped).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.dumps import recorded_games  # noqa: E402
from games.bots.evaluation import BASE_VALUES  # noqa: E402
from games.engine import (  # noqa: E402
    ATTACKER,
    BOMB,
    BOTH,
    DEFENDER,
    FLAG,
    GENERAL,
    IMMOVABLE,
    MARSHAL,
    RANK_NAMES,
    SPY,
    Move,
    resolve_battle,
)


def still_had(army: list, rank: int, name: str) -> str:
    return name if any(u.rank == rank for u in army) else f"no {name}"


def marshal_lost(battle, color: int, me: int, arrived: bool, spy_moved: bool) -> str | None:
    """How a battle took NAME's Marshal (`color` attacked; `arrived`: NAME's last move
    ended where the battle is), or None if it did not."""
    ours = battle.attacker if color == me else battle.defender
    theirs = battle.defender if color == me else battle.attacker
    if ours != MARSHAL:
        return None
    if battle.result == BOTH:
        return "traded with their Marshal" if theirs == MARSHAL else "both died"
    if color == me and battle.result == DEFENDER:
        return "on a bomb" if theirs == BOMB else f"attacking a {RANK_NAMES[theirs]}"
    if color != me and battle.result == ATTACKER and theirs == SPY:
        how = "taken by the Spy"
        how += ", having just stepped next to it" if arrived else ", standing"
        return how + ("" if spy_moved else ", a Spy that had never moved")
    return None


def count(name: str, paths: list[str]) -> tuple[Counter, Counter, Counter, Counter, Counter, int]:
    big: Counter[str] = Counter()
    marshals: Counter[str] = Counter()
    taken: Counter[str] = Counter()
    worth: Counter[str] = Counter()
    spies: Counter[str] = Counter()
    games = 0
    for record, me, game in recorded_games(name, paths):
        games += 1
        fought: set[int] = set()  # ids of the units that have fought
        spy = "kept"
        marshal = "kept"
        stepped_to = -1  # where NAME's last move went
        for src, dst in record["moves"]:
            mover, target = game.board[src], game.board[dst]
            mover_moved = mover is not None and mover.moved
            arrived, stepped_to = stepped_to, dst if mover.color == me else stepped_to
            result = game.push(Move(src, dst))
            battle = result.battle
            if battle is None or mover is None or target is None:
                continue
            known = id(mover) in fought
            fought.update((id(mover), id(target)))
            lost = marshal_lost(battle, result.color, me, arrived == dst, mover_moved)
            if lost and marshal == "kept":
                marshal = lost
            if result.color == me or battle.result != ATTACKER:
                continue
            if battle.defender == SPY and spy == "kept":
                spy = "taken by a piece it knew" if known else "taken by a hidden piece"
                if known and arrived == dst:
                    spy += ", having just stepped next to it"
            if battle.defender in (BOMB, FLAG):
                continue
            beaters = [
                u
                for u in game.army[me]
                if u.rank not in IMMOVABLE
                and resolve_battle(u.rank, battle.attacker, game.variant) == ATTACKER
            ]
            key = (
                f"{RANK_NAMES[battle.attacker]:<10s} {'known ' if known else 'hidden'}"
                f" {'we had a piece that beats it' if beaters else 'nothing of ours beats it'}"
            )
            taken[key] += 1
            worth[key] += BASE_VALUES[battle.defender]
            if known and battle.attacker in (MARSHAL, GENERAL):
                army = game.army[me]
                had = ", ".join(
                    still_had(army, rank, label)
                    for rank, label in ((MARSHAL, "marshal"), (SPY, "spy"), (GENERAL, "general"))
                )
                big[f"{RANK_NAMES[battle.attacker]:<8s} we had: {had}"] += 1
        spies[spy] += 1
        marshals[marshal] += 1
    return taken, worth, spies, marshals, big, games


def main(args: list[str]) -> int:
    if len(args) < 2:
        print(__doc__)
        return 2
    taken, worth, spies, marshals, big, games = count(args[0], args[1:])
    print(f"{games} games; pieces taken by an enemy attacker, worth a game, by the taker:")
    for key, n in sorted(taken.items(), key=lambda item: -worth[item[0]]):
        print(f"  {n:5d}  {worth[key] / max(1, games):6.1f}  {key}")
    print("its Spy, in how many games:")
    for key, n in spies.most_common():
        print(f"  {n:5d}  {key}")
    print("its Marshal, in how many games:")
    for key, n in marshals.most_common():
        print(f"  {n:5d}  {key}")
    print("taken by a known enemy Marshal or General, by what it still had:")
    for key, n in big.most_common():
        print(f"  {n:5d}  {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
