"""Would people's setups make `expert`'s beliefs expect a program's setups better?

Measures an idea that is not in `expert`: weighing the prior of every unmoved hidden
enemy piece by how much more often people (the Gravon setups of `human_setups`) put each
rank on its square. It fits the setups of a program that plays people's setups (DoI); it
cost `expert` games against `hard`, whose setups are generated (docs/bots-rounds.md,
fifth round).

usage: .venv/bin/python scripts/setup_likelihood.py DOI_DIR [COUNT]

DOI_DIR is a built Demon of Ignorance (docs/bots.md, "Pitting our levels against a
program"): its `ai.cfg` lists its setups, each 80 bytes in a `.stg` file (40 (column, row)
pairs, row 0 its back row, in the order of its tray: flag, spy, marshal, general, 2
colonels, 3 majors, 4 captains, 4 lieutenants, 4 sergeants, 5 miners, 8 scouts, 6 bombs).
COUNT of them (300) are drawn with a fixed seed and set up as Blue; for each, expert's
beliefs from Red's view at ply 0 are built with and without people's odds
(`weigh_by_setups` below), and the mean log-likelihood of the true ranks and the
mean probability of the true flag square are printed.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import suspicion  # noqa: E402
from games.bots.human_setups import setups  # noqa: E402
from games.bots.knowledge import build_beliefs  # noqa: E402
from games.engine import BOMB, FLAG, RED, SPY, Game, View, generate_setup, get_variant  # noqa: E402

# DoI's tray: the flag, the spy, the marshal down to the scouts, the bombs
_ARMY = get_variant("classic").army
TRAY = (
    [FLAG, SPY]
    + [rank for rank, count in _ARMY if rank not in (FLAG, SPY, BOMB) for _ in range(count)]
    + [BOMB] * dict(_ARMY)[BOMB]
)


ODDS_FLOOR, ODDS_CEILING = 0.25, 4.0  # a few hundred setups: no square rules a rank out


@cache
def square_odds(variant_name: str) -> dict[tuple[int, int], dict[int, float]]:
    """For each (depth, column) of a setup area, how much more often than on an average
    square people put each rank there (mirrored setups counted too, clipped to
    ODDS_FLOOR..ODDS_CEILING, smoothed by one setup's worth of the average)."""
    grids = setups(variant_name)
    if not grids:
        return {}
    counts: dict[tuple[int, int], dict[int, float]] = {}
    totals: dict[int, float] = {}
    for grid in grids:
        for depth, row in enumerate(grid):
            for col, rank in enumerate(row):
                if rank is None:
                    continue
                for column in (col, 9 - col):
                    cell = counts.setdefault((depth, column), {})
                    cell[rank] = cell.get(rank, 0.0) + 1.0
                    totals[rank] = totals.get(rank, 0.0) + 1.0
    grand = sum(totals.values())
    odds = {}
    for key, cell in counts.items():
        filled = sum(cell.values())
        odds[key] = {}
        for rank, total in totals.items():
            expected = filled * total / grand
            ratio = (cell.get(rank, 0.0) + 1.0) / (expected + 1.0)
            odds[key][rank] = min(ODDS_CEILING, max(ODDS_FLOOR, ratio))
    return odds


def weigh_by_setups(view: View, tracker: object, weights: dict[int, dict[int, float]]) -> None:
    """A `build_beliefs` adjustment: the prior weights of every unmoved hidden enemy piece
    times how often people put each rank on its square (`square_odds`). The flag keeps
    its own rules (the back row, the bombs around it)."""
    odds = square_odds(view.variant)
    if not odds:
        return
    variant = view.game_variant()
    enemy = 1 - view.viewer
    for square, row in weights.items():
        piece = view.board[square]
        if piece is None or piece.moved:
            continue
        cell = odds.get((variant.depth(enemy, square), square % variant.width))
        if cell is None:
            continue
        for rank in row:
            if rank != FLAG:
                row[rank] *= cell.get(rank, 1.0)


def with_odds(view: View, tracker: object, weights: dict[int, dict[int, float]]) -> None:
    weigh_by_setups(view, tracker, weights)
    suspicion.adjust(view, tracker, weights)  # type: ignore[arg-type]


def doi_setups(folder: Path) -> list[dict[int, int]]:
    """Every setup DoI's ai.cfg lists, as Blue's {square: rank}."""
    found = []
    for line in (folder / "ai.cfg").read_text().splitlines():
        if not line.strip():
            continue
        path, _, index = line.strip().partition(",")
        skip = (int(index) - 1) * 80 if index else 0
        data = Path(path).read_bytes()[skip : skip + 80]
        if len(data) == 80:
            found.append({(9 - data[2 * j + 1]) * 10 + data[2 * j]: TRAY[j] for j in range(40)})
    return found


def main(folder: Path, count: int) -> None:
    variant, rng = get_variant("classic"), random.Random(1)
    setups = doi_setups(folder)
    rng.shuffle(setups)
    kinds = {"without people's odds": suspicion.adjust, "with people's odds": with_odds}
    scores: dict[str, list[float]] = {name: [] for name in kinds}
    flags: dict[str, list[float]] = {name: [] for name in kinds}
    for blue in setups[:count]:
        view = Game.from_setups(variant, generate_setup(variant, RED, rng), blue).view(RED)
        for name, adjust in kinds.items():
            beliefs = build_beliefs(view, None, flag_structure=True, adjust=adjust)
            scores[name].append(
                sum(math.log(max(1e-9, beliefs.p(sq, rank))) for sq, rank in blue.items())
            )
            flag = next(sq for sq, rank in blue.items() if rank == FLAG)
            flags[name].append(beliefs.p(flag, FLAG))
    print(f"{min(count, len(setups))} of DoI's {len(setups)} setups")
    for name in kinds:
        mean = statistics.fmean(scores[name])
        print(
            f"{name:<22} log-likelihood a setup {mean:.2f} (a piece {mean / 40:.3f}), "
            f"p of the true flag square {statistics.fmean(flags[name]):.3f}"
        )


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 300)
