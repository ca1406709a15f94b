"""`python manage.py export_games DIR`: every finished game as a StraDoS2 XML file.

One file per game, named `<public id>.xml`. Games StraDoS2 cannot hold (the mini variant)
or that never left their setup are skipped and counted.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandParser

from games.domain.models import Game
from games.engine import NotationError
from games.services.game_records import export_xml


class Command(BaseCommand):
    help = "Write every finished game as a StraDoS2 XML record, one file per game (<id>.xml)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("directory", metavar="DIR", help="folder for the records")

    def handle(self, *args: object, **options: object) -> None:
        directory = Path(str(options["directory"]))
        directory.mkdir(parents=True, exist_ok=True)
        written = skipped = 0
        games = Game.objects.filter(status=Game.Status.FINISHED).order_by("id")
        for game in games.iterator():
            try:
                text = export_xml(game)
            except NotationError as error:
                skipped += 1
                self.stderr.write(f"{game.public_id}: skipped: {error}")
                continue
            (directory / f"{game.public_id}.xml").write_text(text, encoding="utf-8")
            written += 1
        self.stdout.write(f"exported {written} games to {directory}, skipped {skipped}")
