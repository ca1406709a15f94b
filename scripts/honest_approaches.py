"""Whether a level's hidden pieces bluff: the steps they take up to enemy pieces whose rank
they know, and what those enemy pieces do next; the same for the opponent.

usage: .venv/bin/python scripts/honest_approaches.py NAME DUMP [DUMP ...]

DUMP is the gzipped JSON that `--dump` of `python -m games.bots.tournament_cli` writes;
NAME the level counted (`expert`). Every game is replayed from its setups. An *approach* is
a quiet move of a piece whose rank the other side has not seen (it has not fought) to a
square next to an enemy movable piece that has fought, so that its owner knows it. It is
*stronger* if the approaching piece would win attacking the known piece, *even* if both
would go, *weaker* otherwise (a bluff, if it was meant as a threat). The known piece's next
move tells what its owner made of it: it attacked the approacher, moved away (another piece
of the same side moved, or it stepped elsewhere), or stayed while another piece moved.
A program that reads approaches as threats, as DoI does, learns from how often they were
honest: DoI counts a hidden piece that chased its pieces and turned out weaker as a bluff
and, after a net one more bluff than honest threat, stops reading approaches at all
(`blufferRisk` in its `Board.java`; docs/bots.md).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.dumps import recorded_games  # noqa: E402
from games.engine import ATTACKER, BOTH, IMMOVABLE, Move, resolve_battle  # noqa: E402

KINDS = ("stronger", "even", "weaker")
ANSWERS = ("attacked it", "stepped away", "stayed")


def kind_of(mover: int, known: int, variant) -> str:
    result = resolve_battle(mover, known, variant)
    return "stronger" if result == ATTACKER else "even" if result == BOTH else "weaker"


def count(name: str, paths: list[str]) -> tuple[dict[str, Counter], int]:
    """Per side ("NAME" and "opponent"), approaches by kind and by the known piece's answer."""
    tally: dict[str, Counter] = {"NAME": Counter(), "opponent": Counter()}
    games = 0
    for record, me, game in recorded_games(name, paths):
        games += 1
        waiting: tuple[str, str, int, int] | None = None  # (side, kind, known's square, ours)
        for src, dst in record["moves"]:
            mover, target = game.board[src], game.board[dst]
            if waiting is not None:  # this move is the other side's answer to the approach
                side, kind, known_at, approacher_at = waiting
                if src == known_at:
                    answer = "attacked it" if dst == approacher_at else "stepped away"
                else:
                    answer = "stayed"
                tally[side][(kind, answer)] += 1
                waiting = None
            hidden = mover is not None and not (mover.revealed or mover.scout_known)
            game.push(Move(src, dst))
            if target is not None or not hidden:
                continue
            side = "NAME" if mover.color == me else "opponent"
            for near in game.variant.neighbors[dst]:
                other = game.board[near]
                if (
                    other is None
                    or other.color == mover.color
                    or not other.revealed
                    or other.rank in IMMOVABLE
                ):
                    continue
                kind = kind_of(mover.rank, other.rank, game.variant)
                tally[side][kind] += 1
                waiting = (side, kind, near, dst)
                break
    return tally, games


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__.split("\n\n")[1])
        return 2
    name, paths = argv[0], argv[1:]
    tally, games = count(name, paths)
    print(f"{games} games of {name}")
    for side, label in (("NAME", name), ("opponent", "its opponent")):
        counts = tally[side]
        total = sum(counts[k] for k in KINDS)
        print(f"{label}: {total} approaches of a hidden piece to a known one")
        for kind in KINDS:
            share = 100 * counts[kind] / total if total else 0.0
            answers = ", ".join(f"{a} {counts[(kind, a)]}" for a in ANSWERS)
            head = f"  {kind:<9s}{counts[kind]:6d} ({share:5.1f}%)"
            print(f"{head}   then the known piece: {answers}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
