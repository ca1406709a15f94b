"""What one seat may know: the security boundary of the whole product.

A player sees its own pieces, the enemy pieces' squares, and an enemy piece's rank only
once a battle has revealed it. An observer sees no hidden rank of either side. Once the
game is over everything is shown to everyone. `Game.view(viewer)` builds the View; this
module holds only what it is made of, so it needs nothing from `game.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from .pieces import Color, Rank, Square
from .results import MoveResult, Outcome, Phase
from .variants import Variant, get_variant


class PieceView(NamedTuple):
    """One piece as a viewer sees it (a NamedTuple, not a frozen dataclass: a view makes up
    to 80 of them, and a frozen dataclass's __init__ costs about four times as much)."""

    color: Color
    rank: Rank | None  # None: the viewer may not know it
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
    lakes: tuple[Square, ...]
    viewer: int  # RED, BLUE or OBSERVER
    phase: Phase
    turn: Color
    ply: int
    ready: tuple[bool, bool]
    board: tuple[PieceView | None, ...]
    remaining: dict[Rank, int] | None
    captured: tuple[tuple[Rank, ...], tuple[Rank, ...]]
    last_move: MoveResult | None  # its rank is None where the viewer may not know it
    legal_moves: tuple[tuple[Square, Square], ...]
    outcome: Outcome | None
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
            "phase": self.phase.value,
            "turn": self.turn,
            "ply": self.ply,
            "ready": list(self.ready),
            "board": [p.to_dict() if p else None for p in self.board],
            "remaining": {str(r): n for r, n in self.remaining.items()}
            if self.remaining is not None
            else None,
            "captured": [list(c) for c in self.captured],
            "last_move": self.last_move.to_public_dict(get_variant(self.variant))
            if self.last_move
            else None,
            "legal_moves": [list(m) for m in self.legal_moves],
            "outcome": self.outcome.to_dict() if self.outcome else None,
            "rules": dict(self.rules),
            "army": {str(rank): count for rank, count in self.army},
            "placed": list(self.placed),
        }
