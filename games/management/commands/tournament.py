"""`python manage.py tournament --variant classic --games 200 random medium hard`

A round robin of computer players through the engine's referee; the logic lives in
`games.bots.tournament` (pure Python) and its command line in `games.bots.tournament_cli`
(which also runs without Django); this command only hands its arguments over.
With ``--external "CMD"`` each named level plays an outside program instead (see
docs/bots.md): ``manage.py tournament expert --external "java -cp build Main -t"``.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.bots.tournament_cli import UsageError, add_arguments, run


class Command(BaseCommand):
    help = "Play a round robin between computer players and print the results per pairing."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        add_arguments(parser)

    def handle(self, *args: object, **options: object) -> None:
        try:
            run(options, self.stdout.write)
        except UsageError as error:
            raise CommandError(str(error)) from error
