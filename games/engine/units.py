"""A piece on the board as the game tracks it (games/engine/game.py), with what the
opponent has learnt about it."""

from __future__ import annotations


class Unit:
    """One piece on the board, with what the opponent has learnt about it."""

    __slots__ = ("id", "color", "rank", "square", "revealed", "moved", "scout_known", "recent")

    def __init__(self, uid: int, color: int, rank: int, square: int) -> None:
        self.id = uid
        self.color = color
        self.rank = rank
        self.square = square  # -1 once captured
        self.revealed = False  # shown in a battle
        self.moved = False  # so it is no bomb or flag
        self.scout_known = False  # moved more than one square, so it is a Scout
        self.recent: tuple[int, ...] = ()  # squares it left lately (Duel's return rule)

    def to_list(self) -> list:
        return [
            self.id,
            self.color,
            self.rank,
            self.square,
            self.revealed,
            self.moved,
            self.scout_known,
            list(self.recent),
        ]

    @classmethod
    def from_list(cls, data: list) -> Unit:
        unit = cls(data[0], data[1], data[2], data[3])
        unit.revealed, unit.moved, unit.scout_known = data[4], data[5], data[6]
        unit.recent = tuple(data[7])
        return unit
