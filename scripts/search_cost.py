"""What `expert`'s search costs a world at each depth, on positions of one game.

usage: .venv/bin/python scripts/search_cost.py [--positions N] [--worlds W] [--depth D]
       [--think SECONDS]

`hard` plays `hard` (a game that no change to the search alters); every 20th ply from ply
20, the side to move's position is searched as `expert` would: its candidates, W worlds
drawn with a fixed seed, each candidate searched to depths 1..D with no time limit. Prints
per depth the median nodes a world and the CPU milliseconds a world, and a checksum of the
root values (a change that only orders moves or speeds up make/unmake must print the same
checksum: alpha-beta's root value does not depend on the order moves are tried in).
With --think, expert also thinks SECONDS on each position, and the depth it reached is
counted (wall clock: run it on a quiet machine).
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import suspicion  # noqa: E402
from games.bots.expert import ExpertPlayer  # noqa: E402
from games.bots.hard import HardPlayer, MoveScorer  # noqa: E402
from games.bots.knowledge import build_beliefs  # noqa: E402
from games.bots.search import Clock, Searcher, sample_world  # noqa: E402
from games.engine import MINER, Move, View  # noqa: E402
from games.engine.referee import Referee  # noqa: E402


class Recorder(HardPlayer):
    """`hard`, measuring expert's search on its own positions as it plays."""

    def __init__(self, seed: int, sample: callable) -> None:  # type: ignore[valid-type]
        super().__init__(seed)
        self.sample = sample

    def move(self, view: View) -> Move:
        if view.ply >= 20 and view.ply % 20 < 2:
            self.sample(self, view)
        return super().move(view)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--worlds", type=int, default=4)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="also let expert think this many seconds on each position: the depth it reaches",
    )
    args = parser.parse_args()
    rows: dict[int, list[tuple[int, float]]] = {d: [] for d in range(1, args.depth + 1)}
    digest = hashlib.sha256()
    taken = 0
    reached: list[int] = []

    def sample(bot: HardPlayer, view: View) -> None:
        nonlocal taken
        if taken >= args.positions:
            raise StopIteration
        taken += 1
        expert = ExpertPlayer(0, nodes=1)
        expert.color, expert.variant, expert.tracker = bot.color, bot.variant, bot.tracker
        beliefs = build_beliefs(view, bot.tracker, flag_structure=True, adjust=suspicion.adjust)
        scorer = MoveScorer(view, beliefs, expert)
        moves = [Move(src, dst) for src, dst in view.legal_moves]
        hard = {m: scorer.score(m) for m in moves}
        candidates = expert._candidates(moves, hard, scorer)
        suspects = frozenset(
            sq
            for sq, p in enumerate(view.board)
            if p and p.rank is None and beliefs.p(sq, MINER) > 0
        )
        rng = random.Random(view.ply)
        worlds = [sample_world(view, beliefs, rng) for _ in range(args.worlds)]
        for depth in rows:
            for world in worlds:
                clock = Clock(1e9)
                searcher = Searcher(
                    scorer.variant,
                    view.viewer,
                    scorer.values.mine,
                    scorer.values.theirs,
                    clock,
                    suspects,
                )
                started = time.process_time()
                values = searcher.root_values(world, candidates, depth)
                rows[depth].append((searcher.nodes, time.process_time() - started))
                digest.update(repr([round(v, 6) for v, _ in values]).encode())
        if args.think:
            thinker = ExpertPlayer(0, budget=args.think)
            thinker.color, thinker.variant = bot.color, bot.variant
            thinker.tracker = copy.deepcopy(bot.tracker)
            thinker.move(view)
            reached.append(int(thinker.stats.get("depth", 0)))

    red, blue = Recorder(1, sample), Recorder(2, sample)
    try:
        Referee("classic", red, blue).play()
    except StopIteration:
        pass
    print(f"{taken} positions, {args.worlds} worlds each")
    for depth, found in rows.items():
        nodes = statistics.median(n for n, _ in found)
        ms = statistics.median(1000 * s for _, s in found)
        total = sum(n for n, _ in found) / max(1e-9, sum(s for _, s in found))
        print(
            f"depth {depth}: nodes a world median {nodes:.0f}, CPU ms a world median "
            f"{ms:.1f}, nodes per CPU second {total:.0f}"
        )
    print("root values checksum", digest.hexdigest()[:16])
    print("load average (1, 5, 15 min): " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    if reached:
        depths = {d: reached.count(d) for d in sorted(set(reached))}
        print(f"expert thinking {args.think} s a move: positions by depth reached {depths}")


if __name__ == "__main__":
    main()
