"""The tournament's command line, shared by `manage.py tournament` and, without Django,
`python -m games.bots.tournament_cli` (what a machine with only Python and the engine runs).

    python -m games.bots.tournament_cli expert --external "java -cp build Main -t" \\
        --external-dir /path/to/it --games 200 --jobs 16
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from games.engine import VARIANTS
from games.engine.referee import MatchResult

from . import LEVELS
from .dumps import PARTIAL
from .tournament import (
    ExternalSpec,
    ProgressBar,
    format_patterns,
    format_tables,
    is_disagreement,
    run_tournament,
    write_outputs,
)


class UsageError(Exception):
    """Arguments that make no tournament; the message says why."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("players", nargs="+", choices=LEVELS, help="levels taking part")
    parser.add_argument("--variant", default="classic", choices=sorted(VARIANTS))
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--seed", type=int, default=1, help="makes a run repeatable")
    parser.add_argument("--out", type=Path, help="directory for a CSV and a PNG chart")
    parser.add_argument("--no-chart", action="store_true", help="with --out: the CSV only")
    parser.add_argument(
        "--external",
        metavar="CMD",
        help="an outside program speaking the UCC 2012 protocol; every named level plays it",
    )
    parser.add_argument("--external-name", default="external", help="its name in tables")
    parser.add_argument("--external-dir", help="the folder the outside program runs in")
    parser.add_argument(
        "--external-timeout",
        type=float,
        default=10.0,
        help="seconds of silence after which the outside program forfeits",
    )
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    parser.add_argument(
        "--expert-budget",
        type=float,
        help="expert thinks this many seconds a move (EXPERT_BUDGET; default 1)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument(
        "--expert-nodes",
        type=int,
        help="expert searches this many nodes a move instead of a time budget "
        "(EXPERT_NODES): the same games whatever the machine's load",
    )
    parser.add_argument(
        "--dump",
        type=Path,
        metavar="FILE",
        help="write every finished game (names by colour, setups, moves, outcome) as gzipped JSON",
    )
    parser.add_argument(
        "--stop-after",
        type=float,
        metavar="SECONDS",
        help="start no game after this many seconds; the tables count the games played",
    )
    parser.add_argument(
        "--cut-after",
        type=float,
        metavar="SECONDS",
        help="abandon the games still going after this many seconds (counted apart)",
    )


def run(options: Mapping[str, object], write: Callable[[str], None]) -> None:
    """Plays the tournament `options` describe and writes its tables line by line."""
    players = [str(name) for name in options["players"]]  # type: ignore[attr-defined]
    games = int(options["games"])  # type: ignore[call-overload]
    externals: dict[str, ExternalSpec] = {}
    if options["external"]:
        name = str(options["external_name"])
        if name in players:
            raise UsageError(f"--external-name {name!r} is also a level taking part")
        command = tuple(shlex.split(str(options["external"])))
        if not command:
            raise UsageError("--external needs a command")
        directory = options["external_dir"]
        timeout = float(options["external_timeout"])  # type: ignore[arg-type]
        externals[name] = ExternalSpec(command, str(directory) if directory else None, timeout)
        players.append(name)
    if len(players) < 2:
        raise UsageError("name at least two players")
    if games < 1:
        raise UsageError("--games must be at least 1")
    jobs = int(options["jobs"])  # type: ignore[call-overload]
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if options["expert_nodes"]:
        os.environ["EXPERT_NODES"] = str(options["expert_nodes"])
    if options["expert_budget"]:
        os.environ["EXPERT_BUDGET"] = str(options["expert_budget"])
    progress = None if options["no_progress"] else ProgressBar()
    dumped: list[dict] = []
    dump = Path(str(options["dump"])) if options.get("dump") else None
    partial = None
    if dump is not None:
        dump.parent.mkdir(parents=True, exist_ok=True)
        # each game as it ends, so that a run cut short keeps what it played (`dumps`)
        partial = open(f"{dump}{PARTIAL}", "w", encoding="utf-8")

    def keep(names: tuple[str, str], match: object) -> None:
        game = getattr(match, "game", None)
        if game is not None:
            setups = [{str(sq): rank for sq, rank in s.items()} for s in game.initial_setups()]
            moves = [[r.move.src, r.move.dst] for r in game.history]
            outcome = game.outcome.to_dict() if game.outcome else None
            void = isinstance(match, MatchResult) and is_disagreement(match, names, externals)
            record = {
                "names": list(names),
                "setups": setups,
                "moves": moves,
                "outcome": outcome,
                "void": void,
            }
            dumped.append(record)
            assert partial is not None
            partial.write(json.dumps(record) + "\n")
            partial.flush()

    stop_after = options.get("stop_after")
    cut_after = options.get("cut_after")
    result = run_tournament(
        str(options["variant"]),
        players,
        games,
        int(options["seed"]),  # type: ignore[call-overload]
        progress,
        keep if dump is not None else None,
        jobs=jobs,
        externals=externals,
        stop_after=None if stop_after is None else float(stop_after),  # type: ignore[arg-type]
        cut_after=None if cut_after is None else float(cut_after),  # type: ignore[arg-type]
    )
    write(format_tables(result))
    if externals:
        write(format_patterns(result, set(externals)))
    if dump is not None and partial is not None:
        with gzip.open(dump, "wt") as handle:
            json.dump(dumped, handle)
        partial.close()
        Path(partial.name).unlink()
        write(f"wrote {dump}")
    if options["out"] is not None:
        chart = not options.get("no_chart")
        for path in write_outputs(result, Path(str(options["out"])), chart=chart):
            write(f"wrote {path}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.bots.tournament_cli")
    add_arguments(parser)
    options = vars(parser.parse_args(argv))
    try:
        run(options, lambda text: print(text, flush=True))
    except UsageError as error:
        parser.error(str(error))
    return 0


if __name__ == "__main__":
    sys.exit(main())
