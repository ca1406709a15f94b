"""`python manage.py import_games PATH...`: StraDoS2 XML and Gravon GSN records into the database.

Every record is replayed through the engine. Each file prints one line:

    PATH: imported (game <id>)
    PATH: rejected: move N: <reason> (D4-D5)      an illegal move, numbered from 1
    PATH: rejected: <reason>                      no record at all, an unreadable file, a bad
                                                  setup, a result the engine contradicts
    PATH: skipped: already imported as game <id>  the very same bytes were imported before
    PATH: error: database: <message>              the database failed (the file is not at fault)

A rejected file stores nothing. Folders are searched recursively for *.xml and *.gsn files;
every PROGRESS_EVERY files a progress line goes to stderr; the last line is the summary
`imported X, rejected Y, errors Z, skipped S`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from games.engine import NotationError
from games.engine.__main__ import read_record_bytes
from games.engine.records import RecordError
from games.services.game_records import AlreadyImported, import_record_bytes

RECORD_SUFFIXES = (".xml", ".gsn")
PROGRESS_EVERY = 100


def record_files(paths: list[str]) -> Iterator[Path]:
    """Named files as given; folders searched recursively for record files, in name order."""
    for name in paths:
        path = Path(name)
        if path.is_dir():
            yield from sorted(
                p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in RECORD_SUFFIXES
            )
        elif path.exists():
            yield path
        else:
            raise CommandError(f"{name}: no such file or folder")


def import_file(path: Path) -> tuple[str, str]:
    """(kind, the text after 'PATH: ') with kind imported, rejected, skipped or error."""
    try:
        game = import_record_bytes(read_record_bytes(str(path)))
    except AlreadyImported as error:
        return "skipped", f"skipped: {error}"
    except RecordError as error:
        if error.move_number is not None:
            where = f"move {error.move_number}"
            return "rejected", f"rejected: {where}: {error.reason} ({error.move_text})"
        return "rejected", f"rejected: {error.reason}"
    except NotationError as error:  # not a game record at all
        return "rejected", f"rejected: {error}"
    except OSError as error:
        return "rejected", f"rejected: cannot read the file: {error.strerror or error}"
    except DatabaseError as error:  # the file's transaction was rolled back: nothing stored
        return "error", f"error: database: {error}"
    return "imported", f"imported (game {game.public_id})"


class Command(BaseCommand):
    help = "Import StraDoS2 XML and Gravon GSN game records (files or folders) as finished games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", metavar="PATH", help="record files or folders")

    def handle(self, *args: object, **options: object) -> None:
        files = list(record_files(options["paths"]))  # type: ignore[arg-type]
        counts: Counter[str] = Counter()
        for number, path in enumerate(files, start=1):
            kind, text = import_file(path)
            counts[kind] += 1
            self.stdout.write(f"{path}: {text}")
            if number % PROGRESS_EVERY == 0:
                self.stderr.write(f"... {number}/{len(files)} files", style_func=str)
                self.stderr.flush()
        self.stdout.write(
            f"imported {counts['imported']}, rejected {counts['rejected']}, "
            f"errors {counts['error']}, skipped {counts['skipped']}"
        )
