"""Several runs of a tournament as one: the results and loss patterns of a level over all
their recorded games, with one 95% interval.

usage: .venv/bin/python scripts/pooled_results.py NAME DUMP [DUMP ...]

DUMP is the gzipped JSON that `--dump` of `python -m games.bots.tournament_cli` writes.
Runs with different `--seed`s play different games, so their games can be pooled to
reach a count no one run on these machines reaches. Void games (an outside program's
move our engine refused) are left out, as the tournament's own table leaves them out;
every other game is replayed from its setups and counted as the tournament counts it
(`games.bots.losses`). Move times are not in the records: take them from each run's
table. Runs before 2026-12-07 counted an outside program's silence, when our side had no
move left, as the program's forfeit (docs/bots.md, "Against outside programs"): such a
game is counted as it ended by the rules, a loss of the side that could not move, and the
count of them is printed.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.dumps import recorded_games, replayed_outcome  # noqa: E402
from games.bots.losses import MATERIAL_PLY, PATTERNS, suffered  # noqa: E402
from games.bots.tournament import wilson_interval  # noqa: E402
from games.engine import Move  # noqa: E402


def pool(name: str, paths: list[str]) -> dict:
    """NAME's results, endings and loss patterns over the recorded games."""
    results: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    lost: Counter[str] = Counter()  # NAME's patterns over its lost games
    every: Counter[str] = Counter()  # ... over all its games
    opposite: Counter[str] = Counter()  # the opponent's, over all NAME's games
    opponents: set[str] = set()
    for record, me, game in recorded_games(name, paths):
        if record.get("void"):
            results["void"] += 1
            continue
        outcome = record.get("outcome")
        if not outcome:  # cut unfinished: not recorded by the tournament either
            continue
        opponents.add(record["names"][1 - me])
        for src, dst in record["moves"]:
            game.push(Move(src, dst))
        stuck = replayed_outcome(game)
        if outcome.get("termination") == "forfeit" and game.outcome is None and stuck:
            outcome = stuck.to_dict()
            results["rescored"] += 1
        winner = outcome.get("winner")
        result = "draws" if winner is None else "wins" if winner == me else "losses"
        results[result] += 1
        endings[outcome.get("termination", "?")] += 1
        mine = suffered(game, me)
        every.update(mine)
        opposite.update(suffered(game, 1 - me))
        if result == "losses":
            lost.update(mine)
    return {
        "results": results,
        "endings": endings,
        "lost": lost,
        "every": every,
        "opposite": opposite,
        "opponent": ", ".join(sorted(opponents)) or "-",
    }


def report(name: str, paths: list[str]) -> str:
    found = pool(name, paths)
    results, every, opposite = found["results"], found["every"], found["opposite"]
    wins, draws, losses = results["wins"], results["draws"], results["losses"]
    games = wins + draws + losses
    low, high = wilson_interval(wins, games)
    share = 100 * wins / games if games else 0.0
    lines = [
        f"{games} games of {name} against {found['opponent']} in {len(paths)} runs "
        f"({results['void']} void, left out)",
        f"wins {wins} draws {draws} losses {losses}  win % {share:.1f} "
        f"(95% interval {100 * low:.1f}-{100 * high:.1f})",
        "endings: " + ", ".join(f"{k} {v}" for k, v in found["endings"].most_common()),
        f"forfeits where the other side had no move left, counted as its loss: "
        f"{results['rescored']}",
        f"how {name} lost ({losses} losses; [all its games])",
    ]
    for key, label in PATTERNS.items():
        lines.append(f"  {label:<32} {found['lost'][key]:>4} [{every[key]:>4}]")
    lines.append(
        f"  {found['opponent']}: " + ", ".join(f"{PATTERNS[k]} {opposite[k]}" for k in PATTERNS)
    )
    if every["reached_300"]:
        lines.append(
            f"  worth lost by ply {MATERIAL_PLY}, on average over the {every['reached_300']} "
            f"games that lasted so long: {name} "
            f"{every['lost_by_300'] / every['reached_300']:.0f}, {found['opponent']} "
            f"{opposite['lost_by_300'] / opposite['reached_300']:.0f}"
        )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__)
        return 2
    print(report(argv[0], argv[1:]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
