"""What a game is doing and how it ended: its phase, a move that was played, the outcome.

These types are shared by `game.py` (which produces them) and `view.py` (which shows them),
so neither of those modules needs the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from .battle import Battle
from .notation import Move, move_name
from .pieces import BLUE, RED, Color, Rank
from .variants import Variant


class Phase(StrEnum):
    """A StrEnum: each member equals its old plain string, so saved games and JSON are as before."""

    SETUP = "setup"
    PLAYING = "playing"
    FINISHED = "finished"


class Termination(StrEnum):
    FLAG_CAPTURED = "flag_captured"  # the attacker took the flag
    NO_MOVES = "no_moves"  # the side to move has no legal move and loses (`Referee`: or at once)
    NO_MOVES_BOTH = "no_moves_both"  # neither side can move: a draw
    MOVE_CAP = "move_cap"  # the variant's move limit was reached: a draw
    RESIGNATION = "resignation"
    AGREED_DRAW = "agreed_draw"
    TIME = "time"
    FORFEIT = "forfeit"  # an irregularity (Duel: an illegal move or a crash of a program)


SETUP, PLAYING, FINISHED = Phase.SETUP, Phase.PLAYING, Phase.FINISHED
TERMINATIONS = tuple(Termination)

# Games that end with no result (not the engine's: the server ends them). A game that never
# really began is `aborted`; one every person left is `abandoned`.
ABORTED, ABANDONED = "aborted", "abandoned"
NO_RESULT = (ABORTED, ABANDONED)

# How each ending reads, the one wording every page and client shows (served as
# /games/terminations.json).
TERMINATION_LABELS: dict[str, str] = {
    Termination.FLAG_CAPTURED: "the flag was captured",
    Termination.NO_MOVES: "no legal move left",
    Termination.NO_MOVES_BOTH: "neither side can move",
    Termination.MOVE_CAP: "the move limit was reached",
    Termination.RESIGNATION: "resignation",
    Termination.AGREED_DRAW: "a draw was agreed",
    Termination.TIME: "on time",
    Termination.FORFEIT: "the other player left",
    ABORTED: "cancelled before it started",
    ABANDONED: "abandoned: nobody was there any more",
}


@dataclass(frozen=True)
class Outcome:
    winner: Color | None  # RED, BLUE, or None for a draw
    termination: Termination  # a plain string naming one is accepted and converted

    def __post_init__(self) -> None:
        if self.termination not in TERMINATIONS:
            raise ValueError(f"unknown termination {self.termination!r}")
        object.__setattr__(self, "termination", Termination(self.termination))
        if self.winner not in (RED, BLUE, None):
            raise ValueError(f"bad winner {self.winner!r}")

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def to_dict(self) -> dict:
        return {"winner": self.winner, "termination": self.termination.value}

    @classmethod
    def from_dict(cls, data: Mapping) -> Outcome:
        return cls(data["winner"], data["termination"])


@dataclass(frozen=True)
class MoveResult:
    """A move that was played. `rank` is the mover's: public only if there was a battle (in a
    view it is None where the viewer may not know it)."""

    ply: int  # 1 for Red's first move
    color: Color
    move: Move
    rank: Rank | None
    battle: Battle | None = None

    def to_public_dict(self, variant: Variant) -> dict:
        return {
            "ply": self.ply,
            "color": self.color,
            "from": self.move.src,
            "to": self.move.dst,
            "notation": move_name(self.move, variant),
            "battle": self.battle.to_dict() if self.battle else None,
        }

    def to_dict(self) -> dict:
        battle = (
            [self.battle.attacker, self.battle.defender, self.battle.result]
            if self.battle
            else None
        )
        return {
            "ply": self.ply,
            "color": self.color,
            "src": self.move.src,
            "dst": self.move.dst,
            "rank": self.rank,
            "battle": battle,
        }

    @classmethod
    def from_public_dict(cls, data: Mapping) -> MoveResult:
        """Back from `to_public_dict` (a view's JSON, as a client receives it): the mover's
        rank is known only where a battle showed it."""
        battle = Battle(**data["battle"]) if data.get("battle") else None
        rank = battle.attacker if battle else None
        return cls(data["ply"], data["color"], Move(data["from"], data["to"]), rank, battle)

    @classmethod
    def from_dict(cls, data: Mapping) -> MoveResult:
        battle = Battle(*data["battle"]) if data.get("battle") else None
        return cls(data["ply"], data["color"], Move(data["src"], data["dst"]), data["rank"], battle)


_new = object.__new__


def new_move_result(
    ply: int, color: Color, move: Move, rank: Rank | None, battle: Battle | None
) -> MoveResult:
    """`MoveResult(ply, color, move, rank, battle)` at half the cost, for `Game.push` (a
    search's every node): a frozen dataclass's __init__ sets each field through
    object.__setattr__; this fills the same fields directly, and no __post_init__ is
    skipped (MoveResult has none)."""
    result = _new(MoveResult)
    fields = result.__dict__
    fields["ply"] = ply
    fields["color"] = color
    fields["move"] = move
    fields["rank"] = rank
    fields["battle"] = battle
    return result
