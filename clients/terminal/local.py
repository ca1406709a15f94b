"""A terminal game against the computer, on the engine alone (no server, like the console game):
the person types moves, the computer answers, QQ offers to save, a save file resumes."""

from __future__ import annotations

import json
import random
from pathlib import Path

from games import engine
from games.bots import get_player
from games.engine.player_interface import Player, duel_move

from .prompts import Console, Quit, ask_move
from .screen import COLOR_WORDS, Layout, draw, move_sentence, outcome_sentence

SAVE_FORMAT = "stratego-terminal/1"


class LocalGame:
    def __init__(
        self, game: engine.Game, me: int, level: str, console: Console, seed: int | None = None
    ) -> None:
        self.game, self.me, self.level, self.console = game, me, level, console
        self.layout = Layout(game.variant.width, game.variant.height, me)
        self.computer: Player = get_player(level, seed)
        self.computer.start(1 - me, game.variant)

    # ------------------------------------------------------------ making and saving games
    @classmethod
    def new(cls, variant: str, me: int, level: str, console: Console, seed: int | None = None):
        rng = random.Random(seed)
        chosen = engine.get_variant(variant).draw_army(rng)  # mini: the console game's random army
        game = engine.Game(chosen)
        console.say("Initializing game board ...")
        local = cls(game, me, level, console, seed)
        for color in (engine.BLUE, engine.RED):
            console.say(f"Assigning {COLOR_WORDS[color]} pieces to the board ...")
            if color == me:
                game.set_setup(color, engine.generate_setup(game.variant, color, rng))
            else:
                game.set_setup(color, local.computer.setup())
        game.mark_ready(engine.RED)
        game.mark_ready(engine.BLUE)
        return local

    def save(self, path: Path) -> None:
        data = {"format": SAVE_FORMAT, "me": self.me, "level": self.level,
                "state": self.game.to_dict()}  # fmt: skip
        path.write_text(json.dumps(data))

    @classmethod
    def load(cls, path: Path, console: Console) -> LocalGame:
        data = json.loads(path.read_text())
        if data.get("format") != SAVE_FORMAT:
            raise ValueError(f"{path} is not a saved terminal game")
        return cls(engine.Game.from_dict(data["state"]), data["me"], data["level"], console)

    # ------------------------------------------------------------ playing
    def show(self) -> None:
        self.console.say(draw(self.game.view(self.me), self.layout, reveal=self.game.is_over))

    def play(self) -> engine.Outcome | None:
        """Play until the end (the outcome) or QQ (None)."""
        self.show()
        while not self.game.is_over:
            try:
                self.turn()
            except Quit:
                return None
            self.show()
        self.console.say(outcome_sentence(self.game.outcome))
        return self.game.outcome

    def turn(self) -> None:
        if self.game.turn == self.me:
            src, dst = self.ask_move()
            result = self.game.push(engine.Move(src, dst), self.me)
            self.console.say(move_sentence(result, self.layout, show_rank=True))
        else:
            result = self.game.push(self.computer_move(), 1 - self.me)
            self.console.say(move_sentence(result, self.layout, show_rank=False))
        self.tell_computer(result)

    def computer_move(self) -> engine.Move:
        view = self.game.view(1 - self.me)
        try:
            move = self.computer.move(view)
            if not isinstance(move, engine.Move):
                move = duel_move(self.game.variant, 1 - self.me, move)
            if (move.src, move.dst) in view.legal_moves:
                return move
        except (ValueError, engine.EngineError):
            pass
        return engine.Move(*random.choice(view.legal_moves))  # a faulty level never stalls

    def tell_computer(self, result: engine.MoveResult) -> None:
        from games.engine.player_interface import Fight

        if result.color == self.me:
            self.computer.tell_move(result.move, result.to_public_dict(self.game.variant))
        if result.battle is not None:
            b = result.battle
            self.computer.fight(Fight(result.color, result.move.src, result.move.dst,
                                      b.attacker, b.defender, b.result))  # fmt: skip

    def ask_move(self) -> tuple[int, int]:
        legal = set(self.game.view(self.me).legal_moves)
        return ask_move(self.console, self.layout, self.me, legal, self.refusal)

    def refusal(self, src: int, dst: int | None) -> str:
        """Why the engine refuses the move, in its own words."""
        if dst is None:
            return "no such square"
        try:
            self.game.check_move(engine.Move(src, dst), self.me)
        except engine.EngineError as exc:
            return getattr(exc, "message", str(exc))
        return "not a legal move"
