"""A tournament that also counts the weaknesses found in `hard`'s lost games.

Per level, over every game it played: how often its captains or higher pieces attacked a
bomb, how often its marshal was taken by the spy, and, in games that reached ply 300, the
material each side had lost by then (the bots' base values, `evaluation.BASE_VALUES`, flag
excluded). The games are played exactly as `manage.py tournament` plays them (all pairs,
colours alternated, seeds from the tournament seed), and its tables are printed first.

    python -m games.bots.weakness --variant classic --games 20 --seed 2026 medium hard expert
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from games.engine import (
    ATTACKER,
    BLUE,
    BOMB,
    CAPTAIN,
    DEFENDER,
    FLAG,
    MARSHAL,
    RANK_NAMES,
    RED,
    SPY,
    Game,
)
from games.engine.referee import MatchResult

from . import LEVELS
from .evaluation import BASE_VALUES
from .tournament import ProgressBar, TournamentResult, format_tables, run_tournament

MATERIAL_PLY = 300


@dataclass
class Weaknesses:
    games: int = 0
    wins: int = 0
    draws: int = 0
    bombs_hit: int = 0  # by its captains or higher pieces
    marshals_to_spy: int = 0
    games_at_ply: int = 0  # games that reached MATERIAL_PLY
    lost_at_ply: float = 0.0  # its material lost by MATERIAL_PLY, summed over those games
    taken_at_ply: float = 0.0  # the opponent's, likewise
    lost_ranks: Counter[int] = field(default_factory=Counter)  # its pieces lost, whole game
    loss_endings: Counter[str] = field(default_factory=Counter)  # how its lost games ended

    def add(self, game: Game, color: int) -> None:
        self.games += 1
        outcome = game.outcome
        if outcome is not None and outcome.winner == 1 - color:
            self.loss_endings[str(outcome.termination)] += 1
        elif outcome is not None and outcome.winner == color:
            self.wins += 1
        else:
            self.draws += 1
        lost = taken = 0.0
        for result in game.history:
            battle = result.battle
            if battle is None:
                continue
            mine = result.color == color
            if mine and battle.defender == BOMB and CAPTAIN <= battle.attacker <= MARSHAL:
                self.bombs_hit += 1
            if (
                not mine
                and battle.attacker == SPY
                and battle.defender == MARSHAL
                and battle.result == ATTACKER
            ):
                self.marshals_to_spy += 1
            for rank, owner_is_me in _removed(
                battle.attacker, battle.defender, battle.result, mine
            ):
                if owner_is_me and rank != FLAG:
                    self.lost_ranks[rank] += 1
                if rank == FLAG or result.ply > MATERIAL_PLY:
                    continue
                if owner_is_me:
                    lost += BASE_VALUES[rank]
                else:
                    taken += BASE_VALUES[rank]
        if game.ply >= MATERIAL_PLY:
            self.games_at_ply += 1
            self.lost_at_ply += lost
            self.taken_at_ply += taken


def _removed(attacker: int, defender: int, result: str, mine: bool) -> list[tuple[int, bool]]:
    """The ranks a battle removed, each with whether it was the counted side's piece."""
    if result == ATTACKER:
        return [(defender, not mine)]
    if result == DEFENDER:
        return [(attacker, mine)]
    return [(attacker, mine), (defender, not mine)]


def run(
    variant: str,
    players: Sequence[str],
    games: int,
    seed: int,
    progress: ProgressBar | None,
    jobs: int = 1,
    games_out: list[tuple[tuple[str, str], Game]] | None = None,
    partial: Path | None = None,
) -> tuple[TournamentResult, dict[str, Weaknesses]]:
    """`run_tournament`'s games, with the weaknesses of every level counted (and each
    finished game appended to `games_out`, if given, with the names by colour; the counts
    so far written to `partial` after every game, if given: a long run can be read, or
    stopped, before its end)."""
    weaknesses = {name: Weaknesses() for name in players}
    total = games * len(players) * (len(players) - 1) // 2
    done = 0

    def count(names: tuple[str, str], match: MatchResult) -> None:
        nonlocal done
        if match.game is not None:
            if games_out is not None:
                games_out.append((names, match.game))
            for color in (RED, BLUE):
                weaknesses[names[color]].add(match.game, color)
        done += 1
        if partial is not None:
            partial.write_text(format_partial(weaknesses, done, total) + "\n")

    result = run_tournament(variant, players, games, seed, progress, on_match=count, jobs=jobs)
    return result, weaknesses


def format_weaknesses(weaknesses: dict[str, Weaknesses]) -> str:
    lines = [
        f"{'weaknesses':<12} {'games':>6} {'bombs hit by captain+':>22} "
        f"{'marshal lost to spy':>20} {'games at ply 300':>17} {'lost / taken at 300':>20}"
    ]
    for name, w in weaknesses.items():
        at = w.games_at_ply
        material = f"{w.lost_at_ply / at:.0f} / {w.taken_at_ply / at:.0f}" if at else "-"
        lines.append(
            f"{name:<12} {w.games:>6} {w.bombs_hit:>22} {w.marshals_to_spy:>20} "
            f"{at:>17} {material:>20}"
        )
    lines.append(
        f"{'pieces lost a game':<12} " + " ".join(f"{RANK_NAMES[r][:7]:>7}" for r in _SHOWN)
    )
    for name, w in weaknesses.items():
        per = [w.lost_ranks[r] / w.games if w.games else 0.0 for r in _SHOWN]
        lines.append(f"{name:<18} " + " ".join(f"{v:>7.2f}" for v in per))
    lines.append(
        "its losses: "
        + "; ".join(
            f"{name}: " + (", ".join(f"{k} {v}" for k, v in w.loss_endings.most_common()) or "-")
            for name, w in weaknesses.items()
        )
    )
    return "\n".join(lines)


_SHOWN = tuple(range(MARSHAL, 0, -1)) + (BOMB,)


def format_partial(weaknesses: dict[str, Weaknesses], done: int, total: int) -> str:
    """The counts after `done` of `total` games, with each level's wins / draws / losses
    over all its games (in a run of two levels, one's record against the other)."""
    record = "; ".join(
        f"{name} {w.wins} / {w.draws} / {w.games - w.wins - w.draws}"
        for name, w in weaknesses.items()
    )
    return f"after {done} of {total} games: {record}\n" + format_weaknesses(weaknesses)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--games", type=int, default=20, help="games per pairing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the games")
    parser.add_argument("--dump", type=Path, help="pickle the finished games to this file")
    parser.add_argument(
        "--partial", type=Path, help="rewrite this file with the counts after every game"
    )
    parser.add_argument(
        "--expert-nodes",
        type=int,
        help="expert searches this many nodes a move instead of a time budget "
        "(EXPERT_NODES): the same games whatever the machine's load",
    )
    parser.add_argument("players", nargs="+", choices=LEVELS)
    args = parser.parse_args(argv)
    if len(args.players) < 2:
        parser.error("at least two players")
    if args.expert_nodes:
        os.environ["EXPERT_NODES"] = str(args.expert_nodes)  # the worker processes inherit it
    played: list[tuple[tuple[str, str], Game]] = []
    result, weaknesses = run(
        args.variant,
        args.players,
        args.games,
        args.seed,
        ProgressBar(),
        args.jobs,
        played,
        args.partial,
    )
    if args.dump is not None:
        args.dump.write_bytes(pickle.dumps(played))
    print(format_tables(result))
    if os.environ.get("EXPERT_NODES"):
        print(f"expert: {os.environ['EXPERT_NODES']} nodes a move (EXPERT_NODES)")
    print(format_weaknesses(weaknesses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
