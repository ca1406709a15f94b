"""What each side knew about the pieces it took, in recorded games.

usage: .venv/bin/python scripts/shown_victims.py NAME DUMP [DUMP ...]

DUMP is the gzipped JSON that `--dump` of `python -m games.bots.tournament_cli` writes;
NAME the level counted (`expert`). Every game is replayed from its setups. For every
capture by an attacker (the attacker survives, the defender is a movable piece), on each
side: what the taker could know of the piece it took just before the attack: "shown" (its
rank had been seen in a battle), "fled" (hidden, but it had stepped away from a shown
enemy piece that beats it, which tells a reader that it is weaker), "moved" (hidden,
moved, never fled so) or "still" (hidden and never moved). The taker itself was "seen"
(its rank shown in an earlier battle) or "unseen". And how the piece came to be taken: it
had just "walked up" to the taker, it was "left" beside it by its side's last move
("cornered": on its last turn it had no legal quiet move out of the taker's reach, the
two-squares rule counted; "free" otherwise), or a Scout struck "from afar"; and whether
its side's next move "took back" the taker or "took another" piece. With the worth taken
a game (`evaluation.BASE_VALUES`).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.dumps import recorded_games  # noqa: E402
from games.bots.evaluation import BASE_VALUES  # noqa: E402
from games.engine import ATTACKER, IMMOVABLE, RANK_NAMES, Move, resolve_battle  # noqa: E402

STATES = ("shown", "fled", "moved", "still")


def flights(game, src: int, dst: int) -> bool:
    """Whether the piece on `src` steps to `dst` away from a shown enemy piece beside it
    that beats it."""
    mover = game.board[src]
    near = game.variant.neighbors
    for square in near[src]:
        enemy = game.board[square]
        if enemy is None or enemy.color == mover.color or not enemy.revealed:
            continue
        if enemy.rank in IMMOVABLE or dst in near[square] or dst == square:
            continue
        if resolve_battle(enemy.rank, mover.rank, game.variant) == ATTACKER:
            return True
    return False


def count_way(ways: dict, ways_worth: dict, capture: tuple, answer: str) -> None:
    side, how, value, _square, _taker = capture
    ways[side][how + answer] += 1
    ways_worth[side][how + answer] += value


def count(name: str, paths: list[str]) -> tuple[dict, dict, dict, dict, int]:
    taken = {side: Counter() for side in ("ours", "theirs")}
    worth = {side: Counter() for side in ("ours", "theirs")}
    ways = {side: Counter() for side in ("ours", "theirs")}
    ways_worth = {side: Counter() for side in ("ours", "theirs")}
    games = 0
    for _record, me, game in recorded_games(name, paths):
        games += 1
        fled: set[int] = set()  # ids of the units that stepped away from a shown beater
        last: dict[int, tuple[int, int]] = {}  # each colour's last move
        options: dict[int, list[tuple[int, int]]] = {}
        pending = None  # the last capture, (side, how, worth, square, taker) till answered
        for src, dst in _record["moves"]:
            mover, target = game.board[src], game.board[dst]
            if mover is None:
                break
            answering, pending = pending, None  # the last capture, answered by this move
            answered = last.get(1 - mover.color)
            # the quiet moves this side could make now
            options[mover.color] = [
                (m.src, m.dst) for m in game.legal_moves() if game.board[m.dst] is None
            ]
            last[mover.color] = (src, dst)
            if target is None:
                if answering:
                    count_way(ways, ways_worth, answering, "")
                if flights(game, src, dst):
                    fled.add(mover.id)
                game.push(Move(src, dst))
                continue
            if target.revealed:
                state = "shown"
            elif target.id in fled:
                state = "fled"
            else:
                state = "moved" if target.moved else "still"
            rank, color = target.rank, mover.color
            seen = "seen" if mover.revealed else "unseen"
            near = game.variant.neighbors
            # on its last turn, the piece had no legal quiet move out of the taker's reach
            # (the two-squares rule refuses some)
            cornered = not any(
                a == dst and b not in near[src] and b != src
                for a, b in options.get(target.color, ())
            )
            result = game.push(Move(src, dst))
            battle = result.battle
            if answering:  # this move attacked: did it take the taker, or another?
                answer = ""
                if game.board[dst] is not target:
                    answer = ", taken back" if target is answering[4] else ", took another"
                count_way(ways, ways_worth, answering, answer)
            if battle is None or battle.result != ATTACKER or rank in IMMOVABLE:
                continue
            side = "theirs" if color == me else "ours"  # whose piece was taken
            if answered and answered[1] == dst:
                how = f"walked up ({seen})"
            elif dst in near[src]:
                how = f"left, {'cornered' if cornered else 'free'} ({seen})"
            else:
                how = "from afar"
            pending = (side, how, BASE_VALUES[rank], dst, game.board[dst])
            key = f"{state:<6s} by {seen:<6s} {RANK_NAMES[battle.attacker]:<10s}"
            taken[side][key] += 1
            worth[side][key] += BASE_VALUES[rank]
        if pending:
            count_way(ways, ways_worth, pending, "")
    return taken, worth, ways, ways_worth, games


def main(args: list[str]) -> int:
    if len(args) < 2:
        print(__doc__)
        return 2
    taken, worth, ways, ways_worth, games = count(args[0], args[1:])
    print(f"{games} games of {args[0]}; movable pieces taken by an attacker, worth a game")
    for side, label in (("ours", f"{args[0]}'s pieces taken"), ("theirs", "the opponent's")):
        total = sum(worth[side].values()) / max(1, games)
        print(f"{label}: {total:.1f} a game")
        for state in STATES:
            keys = [k for k in worth[side] if k.startswith(state)]
            n = sum(taken[side][k] for k in keys)
            w = sum(worth[side][k] for k in keys) / max(1, games)
            print(f"  {state:<6s} {n:5d}  {w:6.1f}")
        for how, n in ways[side].most_common():
            print(f"  {how:<36s} {n:5d}  {ways_worth[side][how] / max(1, games):6.1f}")
        for key, _w in worth[side].most_common(8):
            print(f"    {taken[side][key]:5d}  {worth[side][key] / max(1, games):6.1f}  {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
