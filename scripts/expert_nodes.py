"""Nodes `expert` searches a move, and nodes per CPU second: for choosing the tables' node
budget (docs/bots.md, "A node budget, for tournaments").

usage: .venv/bin/python scripts/expert_nodes.py BUDGET GAMES [NODES]

Plays GAMES classic games of `expert` (BUDGET seconds a move, or NODES nodes if given)
against `hard`, colours alternated, and prints the nodes searched a move (median, p10,
p90), its CPU and wall-clock milliseconds a move, and nodes per CPU second over all moves
(CPU time, unlike wall-clock time, hardly depends on what else the machine runs).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import ExpertPlayer  # noqa: E402
from games.bots.hard import HardPlayer  # noqa: E402
from games.engine import Move, View  # noqa: E402
from games.engine.referee import Referee  # noqa: E402

Row = tuple[int, float, float, int]  # nodes, CPU seconds, wall seconds, depth


class MeasuredExpert(ExpertPlayer):
    def __init__(self, seed: int, budget: float, nodes: int, rows: list[Row]) -> None:
        super().__init__(seed, budget=budget, nodes=nodes)
        self.rows = rows

    def move(self, view: View) -> Move:
        cpu, wall = time.process_time(), time.perf_counter()
        move = super().move(view)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        self.rows.append((int(self.stats.get("nodes", 0)), cpu, wall, int(self.stats["depth"])))
        return move


def quantile(values: list[float], fraction: float) -> float:
    return sorted(values)[int(fraction * len(values))]


def main(budget: float, games: int, nodes: int) -> None:
    rows: list[Row] = []
    for seed in range(games):
        expert, hard = MeasuredExpert(seed, budget, nodes, rows), HardPlayer(seed + 100)
        result = Referee("classic", *((expert, hard) if seed % 2 == 0 else (hard, expert))).play()
        print(f"game {seed}: {result.outcome.termination} after {result.plies} plies")
    counts = [float(r[0]) for r in rows]
    cpu, wall = [r[1] for r in rows], [r[2] for r in rows]
    print(
        f"moves {len(rows)}; nodes a move: median {statistics.median(counts):.0f}, "
        f"p10 {quantile(counts, 0.1):.0f}, p90 {quantile(counts, 0.9):.0f}"
    )
    print(
        f"ms a move: CPU median {1000 * statistics.median(cpu):.1f}, "
        f"p95 {1000 * quantile(cpu, 0.95):.1f}; wall median {1000 * statistics.median(wall):.1f}"
    )
    print(f"nodes per CPU second {sum(counts) / sum(cpu):.0f}; CPU/wall {sum(cpu) / sum(wall):.2f}")
    print("moves by depth:", dict(sorted((d, sum(r[3] == d for r in rows)) for d in range(5))))


if __name__ == "__main__":
    main(float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 0)
