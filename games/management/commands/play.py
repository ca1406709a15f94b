"""`python manage.py play`: The console game against the computer (docs/terminal.md)."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from clients.terminal.local import LocalGame
from clients.terminal.online import SAVE_FORMAT as ONLINE_FORMAT
from clients.terminal.online import OnlineGame
from clients.terminal.prompts import Console
from games import engine
from games.bots import LEVELS

DEFAULT_SAVE = "stratego-game.json"


class Command(BaseCommand):
    help = "Play Stratego in the terminal against the computer, as the console game draws it."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--variant", default="mini", choices=sorted(engine.VARIANTS))
        parser.add_argument("--level", default="random", choices=LEVELS)
        parser.add_argument("--color", default="red", choices=("red", "blue"))
        parser.add_argument("--seed", type=int, default=None, help="for a repeatable game")
        parser.add_argument("--resume", metavar="FILE", help="continue a saved game")
        parser.add_argument("--save", metavar="FILE", default=DEFAULT_SAVE,
                            help=f"where QQ saves the game (default {DEFAULT_SAVE})")  # fmt: skip
        parser.add_argument("--server", metavar="URL", help="play online on a running server")
        parser.add_argument("--name", default="terminal", help="your nickname online")
        parser.add_argument("--game", help="online: join this game instead of opening one")

    def handle(self, *args, **options) -> None:
        console = Console(ask=input, say=lambda text: self.stdout.write(text))
        game = self.game(options, console)
        if game.play() is None and self.wants_save(console):
            path = Path(options["save"])
            game.save(path)
            console.say(f"Game saved to {path}. Resume: python manage.py play --resume {path}")

    def game(self, options: dict, console: Console) -> LocalGame | OnlineGame:
        if options["resume"]:
            return self.resumed(Path(options["resume"]), console)
        if options["server"]:
            try:
                return OnlineGame.start(options, console)
            except (OSError, ValueError) as exc:
                raise CommandError(f"Could not open a game on {options['server']}: {exc}") from exc
        me = engine.RED if options["color"] == "red" else engine.BLUE
        return LocalGame.new(options["variant"], me, options["level"], console, options["seed"])

    def resumed(self, path: Path, console: Console) -> LocalGame | OnlineGame:
        try:
            data = json.loads(path.read_text())
            if data.get("format") == ONLINE_FORMAT:
                return OnlineGame.load(data, console)
            return LocalGame.load(path, console)
        except (OSError, ValueError, KeyError, AttributeError) as exc:
            raise CommandError(f"Could not load the saved game: {exc}") from exc

    def wants_save(self, console: Console) -> bool:
        try:
            answer = console.ask("Save the game? (Y/N): ")
        except EOFError:
            return False
        return answer.strip().upper().startswith("Y")
