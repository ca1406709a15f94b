"""How the opponent came to take a level's hidden pieces that had moved, in recorded games.

usage: .venv/bin/python scripts/fallen_movers.py NAME DUMP [DUMP ...]

DUMP is the gzipped JSON that `--dump` of `python -m games.bots.tournament_cli` writes;
NAME the level counted (`expert`). Every game is replayed from its setups. Each attack by
the opponent that took (or traded with) a hidden piece of NAME's that had moved is sorted
by how the attacker came to stand next to it:
- "it stepped up": the attacker stepped next to the piece on its move before, and NAME
  played something else in between; split by whether the piece had an empty square to
  flee to, out of the attacker's reach, and whether the attacker stood next to another
  piece of NAME's too (a fork: one flight saves one piece);
- "NAME stepped next to it": NAME's move before put the piece beside the attacker;
- "next to it for longer": they stood side by side for more than one move;
- "a Scout from afar": a Scout's attack along a line.
For each: how many, how many of them by an attacker a battle had shown, how many were
trades (both pieces off), how many a game, and NAME's worth lost a game
(`evaluation.BASE_VALUES`).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.dumps import recorded_games  # noqa: E402
from games.bots.evaluation import BASE_VALUES  # noqa: E402
from games.engine import ATTACKER, BOTH, IMMOVABLE, Game, Move  # noqa: E402

KINDS = (
    "it stepped up, a flight was free",
    "it stepped up, a flight was free, a fork",
    "it stepped up, no flight",
    "NAME stepped next to it",
    "next to it for longer",
    "a Scout from afar",
)


def _kind(
    game: Game, me: int, src: int, dst: int, before: list[tuple[int, int]], empty: set[int]
) -> str:
    """How the attacker on `src` came to stand next to NAME's piece on `dst`. `before`: the
    moves played so far; `empty`: the empty squares before NAME's last move."""
    near = game.variant.neighbors
    if dst not in near[src]:
        return "a Scout from afar"
    if before and before[-1][1] == dst:
        return "NAME stepped next to it"
    if len(before) < 2 or before[-2][1] != src:
        return "next to it for longer"
    if not any(n in empty and n not in near[src] for n in near[dst]):
        return "it stepped up, no flight"
    # a fork: another movable piece of NAME's stood next to the attacker when NAME moved
    # (NAME may have saved that one with its move in between)
    fork = any(
        n != dst
        and (
            n == before[-1][0]
            or (
                game.board[n] is not None
                and game.board[n].color == me
                and game.board[n].rank not in IMMOVABLE
            )
        )
        for n in near[src]
    )
    return "it stepped up, a flight was free" + (", a fork" if fork else "")


@dataclass
class Take:
    """One take of a hidden piece of NAME's that had moved: the record, NAME's colour, the
    index of the attack in the record's moves, the attack, how the attacker came next to
    the piece (`_kind`), whether a battle had shown the attacker, the piece's rank and
    whether both went."""

    record: dict
    me: int
    index: int
    src: int
    dst: int
    kind: str
    known: bool
    rank: int
    traded: bool


def takes(name: str, paths: list[str]) -> Iterator[Take | None]:
    """Every take of a hidden piece of NAME's that had moved, won or traded by the
    attacker, in order; None after each game (to count the games)."""
    for record, me, game in recorded_games(name, paths):
        played: list[tuple[int, int]] = []
        empty: set[int] = set()
        for src, dst in record["moves"]:
            mover, target = game.board[src], game.board[dst]
            if mover is None:
                break
            if mover.color == me:
                empty = {sq for sq, piece in enumerate(game.board) if piece is None}
            fell = (
                mover.color != me
                and target is not None
                and target.color == me
                and target.moved
                and not target.revealed
            )
            kind = _kind(game, me, src, dst, played, empty) if fell else ""
            rank = target.rank if target is not None else None
            known = mover.revealed
            battle = game.push(Move(src, dst)).battle
            index = len(played)
            played.append((src, dst))
            if fell and battle is not None and battle.result in (ATTACKER, BOTH):
                assert rank is not None
                yield Take(record, me, index, src, dst, kind, known, rank, battle.result == BOTH)
        yield None


def count(name: str, paths: list[str]) -> tuple[Counter, Counter, Counter, Counter, int]:
    taken: Counter = Counter()
    traded: Counter = Counter()  # of those, the battles where both pieces went
    shown: Counter = Counter()  # of those, by an attacker whose rank a battle had shown
    worth: Counter = Counter()
    games = 0
    for take in takes(name, paths):
        if take is None:
            games += 1
            continue
        taken[take.kind] += 1
        worth[take.kind] += BASE_VALUES[take.rank]
        traded[take.kind] += take.traded
        shown[take.kind] += take.known
    return taken, shown, traded, worth, games


def main(args: list[str]) -> int:
    if len(args) < 2:
        print(__doc__)
        return 2
    taken, shown, traded, worth, games = count(args[0], args[1:])
    per = max(1, games)
    total = sum(taken.values())
    print(
        f"{games} games of {args[0]}; its hidden pieces that had moved, taken by the opponent:"
        f" {total} ({total / per:.1f} a game), worth {sum(worth.values()) / per:.1f} a game"
    )
    print(
        f"  {'how the attacker came next to it':<44s} taken   shown  traded   a game   worth a game"
    )
    for kind in KINDS:
        label = kind.replace("NAME", args[0])
        print(
            f"  {label:<44s} {taken[kind]:5d}  {shown[kind]:6d}  {traded[kind]:6d}"
            f"   {taken[kind] / per:6.2f}   {worth[kind] / per:12.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
