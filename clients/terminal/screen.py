"""What the terminal shows, as the console game shows it: the board, coordinates and sentences.

Row A is the top of the screen: the far side of the player at the keyboard (its own army is
at the bottom, as the console game draws RED). Columns are numbered from 1. Pieces use its
ids (1 Marshal .. 9 Scout, S, B, F); a piece the player may not see is X."""

from __future__ import annotations

from games import engine

HIDDEN = "X"
ID_OF_RANK = {**engine.CLASSIC_NUMBERS, engine.SPY: "S", engine.BOMB: "B", engine.FLAG: "F"}
COLOR_WORDS = {engine.RED: "RED", engine.BLUE: "BLUE"}


class Layout:
    """Screen coordinates for a board seen by `me` (its own side at the bottom)."""

    def __init__(self, width: int, height: int, me: int) -> None:
        self.width, self.height, self.me = width, height, me

    def name(self, square: int) -> str:
        row, col = divmod(square, self.width)
        screen_row = self.height - 1 - row if self.me == engine.RED else row
        screen_col = col if self.me == engine.RED else self.width - 1 - col
        return f"{chr(ord('A') + screen_row)}{screen_col + 1}"

    def square(self, text: str) -> int | None:
        """The square a name such as "D2" stands for; None if it is no square."""
        text = text.strip().upper()
        if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
            return None
        screen_row, screen_col = ord(text[0]) - ord("A"), int(text[1:]) - 1
        if not (0 <= screen_row < self.height and 0 <= screen_col < self.width):
            return None
        row = self.height - 1 - screen_row if self.me == engine.RED else screen_row
        col = screen_col if self.me == engine.RED else self.width - 1 - screen_col
        return row * self.width + col


def piece_char(piece: engine.PieceView | None, square: int, lakes: set[int], me: int) -> str:
    """Own pieces by id; every enemy piece X, as the console game keeps them until the end."""
    if piece is None:
        return "~" if square in lakes else " "
    if piece.rank is None or piece.color != me:
        return HIDDEN
    return ID_OF_RANK[piece.rank]


def draw(view: engine.View, layout: Layout, reveal: bool = False) -> str:
    """The board as the console game prints it. `reveal`: the game is over, every piece shows."""
    lakes = set(view.lakes)
    wide = layout.width > 9
    cell = 3 if wide else 2
    header = "    " + "".join(str(c + 1).ljust(cell) for c in range(layout.width))
    border = "  +" + "-" * (cell * layout.width + 1) + "+"
    lines = [header.rstrip(), border]
    for screen_row in range(layout.height):
        cells = []
        for screen_col in range(layout.width):
            square = layout.square(f"{chr(ord('A') + screen_row)}{screen_col + 1}")
            piece = view.board[square]
            if reveal and piece is not None and piece.rank is not None:
                char = ID_OF_RANK[piece.rank]
            else:
                char = piece_char(piece, square, lakes, layout.me)
            cells.append(char.ljust(cell - 1))
        lines.append(f"{chr(ord('A') + screen_row)} | " + " ".join(cells) + " |")
    lines.append(border)
    return "\n".join(lines)


def move_sentence(result: engine.MoveResult, layout: Layout, show_rank: bool) -> str:
    """ "RED 7 move from C2 to B2", or what happened in the battle, in one sentence."""
    side = COLOR_WORDS[result.color]
    src, dst = layout.name(result.move.src), layout.name(result.move.dst)
    battle = result.battle
    if battle is None:
        rank = f" {ID_OF_RANK[result.rank]}" if show_rank else ""
        return f"{side}{rank} move from {src} to {dst}"
    other = COLOR_WORDS[1 - result.color]
    attacker = f"{side} {ID_OF_RANK[battle.attacker]} at {src}"
    defender = f"{other} {ID_OF_RANK[battle.defender]} at {dst}"
    if battle.result == engine.BOTH:
        return f"{attacker} and {defender} are both removed."
    if battle.result == engine.DEFENDER:
        verb = "blown up by" if battle.defender == engine.BOMB else "captured by"
        return f"{attacker} {verb} {defender}."
    return f"{attacker} captures {defender}."


def outcome_sentence(outcome: engine.Outcome) -> str:
    why = engine.TERMINATION_LABELS.get(outcome.termination, outcome.termination)
    if outcome.winner is None:
        return f"The game is a draw ({why})."
    return f"{COLOR_WORDS[outcome.winner]} wins ({why})!"
