"""Play a computer level in the terminal: `python -m games.bots.play --level expert`.

The person gets a random plausible setup (the engine's generator), sees the board as their
seat sees it (their own ranks, `?` for enemy pieces no battle has shown), and types moves
like `D4-D5` (`quit` resigns). The game runs through the engine's referee, as the
tournaments do, so the computer gets exactly what it gets on the server: its seat's view.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TextIO

from games.engine import (
    COLOR_NAMES,
    RANK_SYMBOLS,
    RED,
    Move,
    NotationError,
    View,
    generate_setup,
    get_variant,
    move_name,
    parse_move,
)
from games.engine.notation import COLUMN_LETTERS
from games.engine.player_interface import Fight, Player
from games.engine.referee import Referee

from . import LEVELS, get_player


class Resigned(Exception):
    """The person typed `quit`."""


def render(view: View) -> str:
    """The board as `view.viewer` sees it, row 10 at the top; lakes `~`, empty `.`,
    own pieces by rank symbol, enemy pieces by symbol if revealed else `?` (in lower case)."""
    lines = []
    for row in reversed(range(view.height)):
        cells = []
        for col in range(view.width):
            square = row * view.width + col
            piece = view.board[square]
            if square in view.lakes:
                cells.append("~")
            elif piece is None:
                cells.append(".")
            elif piece.rank is None:
                cells.append("?")
            else:
                symbol = RANK_SYMBOLS[piece.rank]
                cells.append(symbol if piece.color == view.viewer else symbol.lower())
        lines.append(f"{row + 1:>2} " + " ".join(cells))
    lines.append("   " + " ".join(COLUMN_LETTERS[: view.width]))
    return "\n".join(lines)


class TerminalPlayer(Player):
    """A person at the terminal: reads moves until one is legal."""

    name = "you"

    def __init__(
        self, read: Callable[[str], str] = input, out: TextIO = sys.stdout, seed: int | None = None
    ) -> None:
        super().__init__()
        self.read = read
        self.out = out
        self.rng = random.Random(seed)

    def setup(self) -> dict[int, int]:
        assert self.variant is not None
        return generate_setup(self.variant, self.color, self.rng)

    def move(self, view: View) -> Move:
        variant = view.game_variant()
        print(render(view), file=self.out)
        while True:
            text = self.read(f"{COLOR_NAMES[view.viewer]} to move (e.g. D4-D5, quit): ").strip()
            if text.lower() == "quit":
                raise Resigned
            try:
                move = parse_move(text, variant)
            except NotationError as error:
                print(error, file=self.out)
                continue
            if (move.src, move.dst) in view.legal_moves:
                return move
            print(f"{move_name(move, variant)} is not a legal move here", file=self.out)

    def tell_move(self, move: Move, public: Mapping) -> None:
        print(f"The computer plays {public['notation']}", file=self.out)

    def fight(self, fight: Fight) -> None:
        attacker, defender = RANK_SYMBOLS[fight.attacker_rank], RANK_SYMBOLS[fight.defender_rank]
        print(f"Battle: {attacker} attacks {defender}: {fight.result} stays", file=self.out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play a computer level in the terminal.")
    parser.add_argument("--level", default="expert", choices=LEVELS)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--color", default="red", choices=["red", "blue"])
    args = parser.parse_args(argv)
    you = TerminalPlayer()
    bot = get_player(args.level)
    red, blue = (you, bot) if args.color == "red" else (bot, you)
    try:
        result = Referee(get_variant(args.variant), red, blue).play()
    except KeyboardInterrupt:
        return 1
    if result.forfeit is not None and "Resigned" in result.forfeit.reason:
        print("You resigned.")
        return 0
    winner = result.outcome.winner
    mine = RED if args.color == "red" else 1 - RED
    verdict = "a draw" if winner is None else ("you win" if winner == mine else "you lose")
    print(f"Game over after {result.plies} plies: {verdict} ({result.outcome.termination}).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
