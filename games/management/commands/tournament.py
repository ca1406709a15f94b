"""`python manage.py tournament --variant classic --games 200 random medium hard`

A round robin of computer players through the engine's referee; the logic lives in
`games.bots.tournament` (pure Python), this command only parses arguments and prints.
"""

from __future__ import annotations

import os
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.bots import LEVELS
from games.bots.tournament import ProgressBar, format_tables, run_tournament, write_outputs
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
        if len(players) < 2:
            raise CommandError("name at least two players")
        if games < 1:
            raise CommandError("--games must be at least 1")
        if options["expert_nodes"]:
            os.environ["EXPERT_NODES"] = str(options["expert_nodes"])
        progress = None if options["no_progress"] else ProgressBar()
        result = run_tournament(
            str(options["variant"]),
            players,
            games,
            int(options["seed"]),  # type: ignore[call-overload]
            progress,
        )
        self.stdout.write(format_tables(result))
        if options["out"] is not None:
            for path in write_outputs(result, Path(str(options["out"]))):
                self.stdout.write(f"wrote {path}")
