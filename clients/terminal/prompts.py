"""The console game's two prompts (or one line `D2 C2`), its errors, and QQ: shared by the local
and the online game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .screen import COLOR_WORDS, Layout

QUIT = "QQ"


class Quit(Exception):
    """The person typed QQ (or ended the input)."""


@dataclass
class Console:
    ask: Callable[[str], str] = input
    say: Callable[[str], None] = print

    def prompt(self, text: str) -> str:
        try:
            answer = self.ask(text).strip().upper()
        except EOFError:  # Ctrl-D: as QQ
            answer = QUIT
        if answer == QUIT:
            raise Quit
        return answer


Refusal = Callable[[int, int | None], str]  # (from, to) -> why that move is refused


def ask_move(
    console: Console, layout: Layout, color: int, legal: set[tuple[int, int]], why: Refusal
) -> tuple[int, int]:
    """Ask until a legal move: a movable piece first (else the console game's error), then its
    target, typed on the same line or at the second prompt."""
    side = COLOR_WORDS[color]
    while True:
        words = console.prompt(
            f"{side} MOVE: Enter current coordinates of piece (e.g., D2, or QQ to quit): "
        ).split()
        src = layout.square(words[0]) if words else None
        if src is None or not any(s == src for s, _ in legal):
            shown = words[0] if words else ""
            console.say(f"Error: Invalid piece or not moveable at {shown}. Try again...")
            continue
        target = words[1] if len(words) > 1 else None
        if target is None:
            target = console.prompt(f"{side} MOVE: Enter new coordinates of piece at {words[0]}:")
        dst = layout.square(target)
        if dst is not None and (src, dst) in legal:
            return src, dst
        reason = why(src, dst)
        console.say(f"Error: Invalid move from {words[0]} to {target} ({reason}). Try again...")
