"""Small ASCII boards for rule tests, drawn as players read tournament diagrams:
Blue's back row on top, Red's at the bottom, columns A.. left to right.

Each square is a two-character token: `..` empty, `~~` lake, `R` or `B` (red, blue)
followed by the rank symbol: S spy, 2-9, M marshal, B bomb, F flag. `RM` is Red's
Marshal, `B2` a Blue Scout, `BB` a Blue Bomb.
"""

from __future__ import annotations

from games.engine import BLUE, RANK_SYMBOLS, RED, Game, Variant, get_variant, parse_square

_SYMBOL_TO_RANK = {symbol: rank for rank, symbol in RANK_SYMBOLS.items()}
_COLOR = {"R": RED, "B": BLUE}


def parse_board(text: str, variant: Variant | str = "mini") -> dict[int, tuple[int, int]]:
    variant = get_variant(variant) if isinstance(variant, str) else variant
    rows = [line.split() for line in text.strip().splitlines()]
    assert len(rows) == variant.height, f"expected {variant.height} rows, got {len(rows)}"
    pieces: dict[int, tuple[int, int]] = {}
    for drawn_row, tokens in enumerate(rows):
        assert len(tokens) == variant.width, f"row {drawn_row}: expected {variant.width} squares"
        row = variant.height - 1 - drawn_row
        for col, token in enumerate(tokens):
            square = row * variant.width + col
            if token in ("..", "~~"):
                assert (token == "~~") == (square in variant.lakes), (
                    f"lake mismatch at {token} {square}"
                )
                continue
            pieces[square] = (_COLOR[token[0]], _SYMBOL_TO_RANK[token[1]])
    return pieces


def game_from(text: str, variant: Variant | str = "mini", turn: int = RED) -> Game:
    return Game.from_position(variant, parse_board(text, variant), turn)


def moves_from(game: Game, square: str) -> set[str]:
    """The destinations of the legal moves from `square`, as square names."""
    from games.engine import square_name

    src = parse_square(square, game.variant)
    return {square_name(m.dst, game.variant) for m in game.legal_moves() if m.src == src}


def draw(game: Game) -> str:
    """The board of `game` as a diagram in the same notation (ranks included)."""
    v = game.variant
    lines = []
    for row in reversed(range(v.height)):
        tokens = []
        for col in range(v.width):
            sq = row * v.width + col
            unit = game.board[sq]
            if sq in v.lakes:
                tokens.append("~~")
            elif unit is None:
                tokens.append("..")
            else:
                tokens.append(("R" if unit.color == RED else "B") + RANK_SYMBOLS[unit.rank])
        lines.append(" ".join(tokens))
    return "\n".join(lines)
