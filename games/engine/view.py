"""What one seat may know: the security boundary of the whole product.

A player sees its own pieces, the enemy pieces' squares, and an enemy piece's rank only
once a battle has revealed it. An observer sees no hidden rank of either side. Once the
game is over everything is shown to everyone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .pieces import COLORS, OBSERVER
from .variants import Variant, get_variant

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class PieceView:
    color: int
    rank: int | None  # None: the viewer may not know it
    moved: bool = False
    revealed: bool = False
    scout: bool = False

    def to_dict(self) -> dict:
        return {
            "color": self.color,
            "rank": self.rank,
            "moved": self.moved,
            "revealed": self.revealed,
            "scout": self.scout,
        }


@dataclass(frozen=True)
class View:
    variant: str
    width: int
    height: int
    lakes: tuple[int, ...]
    viewer: int
    phase: str
    turn: int
    ply: int
    ready: tuple[bool, bool]
    board: tuple[PieceView | None, ...]
    remaining: dict[int, int] | None
    captured: tuple[tuple[int, ...], tuple[int, ...]]
    last_move: dict | None
    legal_moves: tuple[tuple[int, int], ...]
    outcome: dict | None
    rules: dict = field(default_factory=dict)  # Variant.rule_settings(): the rules in force
    army: tuple[tuple[int, int], ...] = ()  # each side's army, (rank, count): public knowledge
    placed: tuple[int, int] = (0, 0)  # pieces each side has on the board (setup: all one learns)

    def game_variant(self) -> Variant:
        """The variant as this game plays it: its rule settings and (mini) its drawn army."""
        base = get_variant(self.variant)
        settings = dict(self.rules)
        if base.army_choices and self.army:
            settings["army"] = self.army
        return base.with_rules(**settings)

    def to_dict(self) -> dict:
        return {
            "variant": self.variant,
            "width": self.width,
            "height": self.height,
            "lakes": list(self.lakes),
            "viewer": self.viewer,
            "phase": self.phase,
            "turn": self.turn,
            "ply": self.ply,
            "ready": list(self.ready),
            "board": [p.to_dict() if p else None for p in self.board],
            "remaining": {str(r): n for r, n in self.remaining.items()}
            if self.remaining is not None
            else None,
            "captured": [list(c) for c in self.captured],
            "last_move": self.last_move,
            "legal_moves": [list(m) for m in self.legal_moves],
            "outcome": self.outcome,
            "rules": dict(self.rules),
            "army": {str(rank): count for rank, count in self.army},
            "placed": list(self.placed),
        }


def build_view(game: Game, viewer: int) -> View:
    if viewer not in (*COLORS, OBSERVER):
        raise ValueError(f"unknown viewer {viewer!r}")
    over = game.phase == "finished"
    board: list[PieceView | None] = [None] * game.variant.size
    if game.units:
        for unit in game.units:
            if unit.square >= 0:
                known = over or unit.color == viewer or unit.revealed
                board[unit.square] = PieceView(
                    unit.color,
                    unit.rank if known else None,
                    unit.moved,
                    unit.revealed,
                    unit.scout_known,
                )
    else:  # setup: a viewer sees its own pieces only; where the others stand is private
        # (even once a game that never began is over): only their count is public.
        for square, rank in game.setups[viewer].items() if viewer in COLORS else ():
            board[square] = PieceView(viewer, rank)
    last = game.last_move
    legal = ()
    if game.phase == "playing" and viewer == game.turn:
        legal = tuple((m.src, m.dst) for m in game.generate_legal_moves())
    return View(
        variant=game.variant.name,
        width=game.variant.width,
        height=game.variant.height,
        lakes=tuple(sorted(game.variant.lakes)),
        viewer=viewer,
        phase=game.phase,
        turn=game.turn,
        ply=game.ply,
        ready=(game.ready[0], game.ready[1]),
        board=tuple(board),
        remaining=game.remaining(viewer) if viewer in COLORS else None,
        captured=(tuple(game.captured[0]), tuple(game.captured[1])),
        last_move=last.to_public_dict(game.variant) if last else None,
        legal_moves=legal,
        outcome=game.outcome.to_dict() if game.outcome else None,
        rules=game.variant.rule_settings(),
        army=game.variant.army,
        placed=placed_counts(game),
    )


def placed_counts(game: Game) -> tuple[int, int]:
    """How many pieces each side has on the board: in setup, the only public fact about it."""
    if game.units:
        counts = [0, 0]
        for unit in game.units:
            if unit.square >= 0:
                counts[unit.color] += 1
        return counts[0], counts[1]
    return len(game.setups[0]), len(game.setups[1])
