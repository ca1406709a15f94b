"""Two runs of the same tournament plan, game by game: how each game our level played came
out in one run beside the other, and whether the difference is more than luck.

usage: .venv/bin/python scripts/paired_results.py NAME A_DUMP[,A_DUMP...] B_DUMP[,B_DUMP...]
       .venv/bin/python scripts/paired_results.py NAME A.csv B.csv

Each DUMP is the gzipped JSON that `--dump` of `python -m games.bots.tournament_cli` writes
(or the `.partial` file it leaves while it plays: the games finished so far).
With the same `--seed`, game n of two runs has the same colours and the same setup of
NAME's, so two codes can be compared on the same games; the opponent's setup and every
move after the first difference may differ. Games are paired by NAME's colour and setup;
a game only one run reached, or void in either (an outside program's move our engine
refused), is left out. The sign test counts the pairs one run won and
the other lost: under the hypothesis that both codes are as strong, each such pair goes
either way with even odds.

A code that sets up differently (a change to the setup itself) cannot be paired by setup:
give the two runs' `tournament-classic.csv` files instead (written under `--out`), and
games pair by their number in the plan, which gives both runs the same colours and the
same seeds game by game.
"""

from __future__ import annotations

import csv
import json
import math
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.dumps import load_records  # noqa: E402

RESULTS = ("W", "D", "L")


def results(name: str, paths: list[str]) -> dict[tuple[int, str], str]:
    """(NAME's colour, NAME's setup) -> W, D or L for NAME; from CSV files,
    (NAME's colour, the game's number) -> the same."""
    found: dict[tuple[int, str], str] = {}
    for path in paths:
        if path.endswith(".csv"):
            found.update(csv_results(name, path))
            continue
        for record in load_records(path):
            if name not in record["names"] or record.get("void"):
                continue
            me = record["names"].index(name)
            key = (me, json.dumps(record["setups"][me], sort_keys=True))
            winner = record["outcome"].get("winner")
            found[key] = "D" if winner is None else ("W" if winner == me else "L")
    return found


def csv_results(name: str, path: str) -> dict[tuple[int, str], str]:
    """(NAME's colour, the game's number) -> W, D or L, from a tournament's CSV."""
    found: dict[tuple[int, str], str] = {}
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            names = (row["red"], row["blue"])
            if name not in names or row["disagreement"]:
                continue
            me = names.index(name)
            winner = row["winner"]
            found[(me, row["game"])] = "D" if winner == "draw" else ("W" if winner == name else "L")
    return found


def sign_test(better: int, worse: int) -> float:
    """Two-sided exact binomial p-value of `better` against `worse` at even odds."""
    n = better + worse
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(better, worse) + 1)) / 2**n
    return min(1.0, 2 * tail)


def main(argv: list[str]) -> None:
    if len(argv) != 4:
        sys.exit(__doc__)
    name, a_paths, b_paths = argv[1], argv[2].split(","), argv[3].split(",")
    a, b = results(name, a_paths), results(name, b_paths)
    both = sorted(set(a) & set(b))
    table = Counter((a[key], b[key]) for key in both)
    print(
        f"{len(both)} games in both runs (left out: {len(set(a) - set(b))} of A's, "
        f"{len(set(b) - set(a))} of B's)"
    )
    print("A \\ B    " + "".join(f"{r:>5}" for r in RESULTS))
    for x in RESULTS:
        print(f"{x:<9}" + "".join(f"{table[(x, y)]:>5}" for y in RESULTS))
    for label, run in (("A", a), ("B", b)):
        won = sum(1 for key in both if run[key] == "W")
        print(f"{label}: {won} won of {len(both)}")
    b_better, a_better = table[("L", "W")], table[("W", "L")]
    print(
        f"B won where A lost: {b_better}; A won where B lost: {a_better}; "
        f"sign test p = {sign_test(b_better, a_better):.3f}"
    )


if __name__ == "__main__":
    main(sys.argv)
