"""Whether a change to the search left `expert`'s moves alone, and what it did to its speed.

usage: .venv/bin/python scripts/same_moves.py --base DIR [--games G] [--every K]
       [--nodes N] [--rounds R]
       .venv/bin/python scripts/same_moves.py --worker [...]   (one tree's answers, as JSON)

`hard` plays `hard` in G classic games (a game no change to the search alters; game g
is played by HardPlayer(g) and HardPlayer(g + 100)); every K-th ply from ply K, `expert`
(a fresh ExpertPlayer(ply) with the knowledge `hard` gathered so far, N nodes a move)
chooses a move in the side to move's position. With --base, that is done by this tree and
by DIR (a checkout of the code before the change: `git worktree add --detach DIR main`),
each in its own process, R times alternately (base, new, base, new, ...), and the script
prints:
- every position where the move, the nodes searched, the depth reached or the worlds
  searched differ (a change that only speeds up the search must print none), then
  "IDENTICAL" or "DIFFERENT" (and exits 1 when different);
- per tree the median over positions of nodes per CPU second of the search (`think`,
  the best of the R rounds a position), and the ratio new/base, with the load average.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()


def worker(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(Path(args.root).resolve()))
    from games.bots import expert as expert_module
    from games.bots.expert import ExpertPlayer
    from games.bots.hard import HardPlayer
    from games.engine.referee import Referee

    spent: list[float] = []
    think = expert_module.think

    def timed_think(*a, **k):  # type: ignore[no-untyped-def]
        started = time.process_time()
        try:
            return think(*a, **k)
        finally:
            spent.append(time.process_time() - started)

    expert_module.think = timed_think  # type: ignore[assignment]
    rows: list[dict] = []

    class Recorder(HardPlayer):
        def __init__(self, number: int, game: int) -> None:
            super().__init__(number)
            self.game_number = game

        def move(self, view):  # type: ignore[no-untyped-def]
            if view.ply >= args.every and view.ply % args.every == 0 and len(view.legal_moves) > 1:
                bot = ExpertPlayer(view.ply, nodes=args.nodes)
                bot.color, bot.variant = self.color, self.variant
                bot.tracker = copy.deepcopy(self.tracker)
                bot.captures_seen, bot.quiet_turns = self.captures_seen, self.quiet_turns
                spent.clear()
                move = bot.move(view)
                rows.append(
                    {
                        "game": self.game_number,
                        "ply": view.ply,
                        "move": [move.src, move.dst],
                        "nodes": int(bot.stats.get("nodes", 0)),
                        "depth": int(bot.stats.get("depth", 0)),
                        "worlds": int(bot.stats.get("worlds", 0)),
                        "cpu": sum(spent),
                    }
                )
            if view.ply >= args.last_ply:
                raise StopIteration  # ends this game (the referee forfeits it)
            return super().move(view)

    for game in range(1, args.games + 1):
        Referee("classic", Recorder(game, game), Recorder(game + 100, game)).play()
    json.dump(rows, sys.stdout)


def run_tree(root: str, args: argparse.Namespace) -> list[dict]:
    python = Path(root) / ".venv" / "bin" / "python"
    command = [
        str(python if python.exists() else sys.executable),
        str(HERE),
        "--worker",
        "--root",
        root,
        f"--games={args.games}",
        f"--every={args.every}",
        f"--nodes={args.nodes}",
        f"--last-ply={args.last_ply}",
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=root)
    return json.loads(done.stdout)


def compare(args: argparse.Namespace) -> int:
    new_root = str(HERE.parent.parent)
    print(f"load average before: {os.getloadavg()}")
    runs: dict[str, list[list[dict]]] = {"base": [], "new": []}
    for _ in range(args.rounds):
        runs["base"].append(run_tree(args.base, args))
        runs["new"].append(run_tree(new_root, args))
    print(f"load average after:  {os.getloadavg()}")
    keys = ("move", "nodes", "depth", "worlds")
    different = 0
    reference = runs["base"][0]
    for name, tries in runs.items():
        for rows in tries:
            if len(rows) != len(reference):
                print(f"{name}: {len(rows)} positions, base {len(reference)}")
                different += 1
                continue
            for row, ref in zip(rows, reference, strict=True):
                if any(row[k] != ref[k] for k in keys) or (row["game"], row["ply"]) != (
                    ref["game"],
                    ref["ply"],
                ):
                    different += 1
                    print(
                        f"{name} game {row['game']} ply {row['ply']}: "
                        + ", ".join(f"{k} {row[k]} (base {ref[k]})" for k in keys)
                    )
    nodes = sum(r["nodes"] for r in reference)
    print(
        f"{len(reference)} positions from {args.games} games, {args.nodes} nodes a move, "
        f"{nodes} nodes in all, depths {sorted({r['depth'] for r in reference})}"
    )
    print("IDENTICAL" if not different else f"DIFFERENT ({different} rows)")
    rates = {}
    for name, tries in runs.items():
        best = [min(t[i]["cpu"] for t in tries) for i in range(len(reference))]
        rates[name] = statistics.median(
            r["nodes"] / cpu for r, cpu in zip(reference, best, strict=True) if cpu > 0
        )
        print(
            f"{name:>4}: nodes per CPU second of the search, median over positions "
            f"{rates[name]:.0f}; CPU seconds in all {sum(best):.2f}"
        )
    print(f"ratio new/base {rates['new'] / rates['base']:.2f}")
    return 1 if different else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", help="a checkout of the code before the change")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--every", type=int, default=10, help="a position every K plies")
    parser.add_argument("--last-ply", type=int, default=130, help="each game stops here")
    parser.add_argument("--nodes", type=int, default=4000, help="expert's node budget a move")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each tree (timing)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--root", default=str(HERE.parent.parent), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    if not args.base:
        parser.error("--base DIR is needed (a checkout of the code before the change)")
    sys.exit(compare(args))


if __name__ == "__main__":
    main()
