"""`python manage.py tournament --variant classic --games 200 random medium hard`

A round robin of computer players through the engine's referee; the logic lives in
`games.bots.tournament` (pure Python), this command only parses arguments and prints.
With ``--external "CMD"`` each named level plays an outside program instead (see
docs/bots.md): ``manage.py tournament expert --external "java -cp build Main -t"``.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.bots import LEVELS
from games.bots.tournament import (
    ExternalSpec,
    ProgressBar,
    format_patterns,
    format_tables,
    run_tournament,
    write_outputs,
)
from games.engine import VARIANTS


class Command(BaseCommand):
    help = "Play a round robin between computer players and print the results per pairing."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("players", nargs="+", choices=LEVELS, help="levels taking part")
        parser.add_argument("--variant", default="classic", choices=sorted(VARIANTS))
        parser.add_argument("--games", type=int, default=200, help="games per pairing")
        parser.add_argument("--seed", type=int, default=1, help="makes a run repeatable")
        parser.add_argument("--out", type=Path, help="directory for a CSV and a PNG chart")
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

    def handle(self, *args: object, **options: object) -> None:
        players = list(options["players"])  # type: ignore[call-overload]
        games = int(options["games"])  # type: ignore[call-overload]
        externals: dict[str, ExternalSpec] = {}
        if options["external"]:
            name = str(options["external_name"])
            if name in players:
                raise CommandError(f"--external-name {name!r} is also a level taking part")
            command = tuple(shlex.split(str(options["external"])))
            if not command:
                raise CommandError("--external needs a command")
            directory = options["external_dir"]
            timeout = float(options["external_timeout"])  # type: ignore[arg-type]
            externals[name] = ExternalSpec(command, str(directory) if directory else None, timeout)
            players.append(name)
        if len(players) < 2:
            raise CommandError("name at least two players")
        if games < 1:
            raise CommandError("--games must be at least 1")
        jobs = int(options["jobs"])  # type: ignore[call-overload]
        if jobs < 1:
            raise CommandError("--jobs must be at least 1")
        if options["expert_nodes"]:
            os.environ["EXPERT_NODES"] = str(options["expert_nodes"])
        if options["expert_budget"]:
            os.environ["EXPERT_BUDGET"] = str(options["expert_budget"])
        progress = None if options["no_progress"] else ProgressBar()
        result = run_tournament(
            str(options["variant"]),
            players,
            games,
            int(options["seed"]),  # type: ignore[call-overload]
            progress,
            jobs=jobs,
            externals=externals,
        )
        self.stdout.write(format_tables(result))
        if externals:
            self.stdout.write(format_patterns(result, set(externals)))
        if options["out"] is not None:
            for path in write_outputs(result, Path(str(options["out"]))):
                self.stdout.write(f"wrote {path}")
