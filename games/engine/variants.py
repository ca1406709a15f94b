"""Variants as data: the board, the army and the rule settings of each game type.

Every rule difference between variants is a field here; the move and setup code reads
the fields and never asks for a variant by name. Sources are in docs/rules.md.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from .errors import NotationError, RulesError
from .pieces import (
    BLUE,
    BOMB,
    CAPTAIN,
    COLONEL,
    FLAG,
    GENERAL,
    LIEUTENANT,
    MAJOR,
    MARSHAL,
    MINER,
    RANK_NAMES,
    RED,
    SCOUT,
    SERGEANT,
    SPY,
)

# Direction numbers of Duel: 1 forward, 2 back, 3 left, 4 right (seen by the mover).
FORWARD, BACK, LEFT, RIGHT = 1, 2, 3, 4


# The fields of a Variant that are rules of play and may be set per game (`with_rules`); the
# board and the setup area make the variant what it is and stay. The army stays too, except
# in a variant with `army_choices` (the console game's mini), where each game draws its own.
RULE_FIELDS = (
    "two_squares_limit",
    "more_squares_rule",
    "return_after_moves",
    "max_plies",
    "max_quiet_plies",
    "spy_beats",
)


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    width: int
    height: int
    lakes: frozenset[int]
    army: tuple[tuple[int, int], ...]  # (rank, count) pairs
    setup_rows: int
    two_squares_limit: int | None = 5  # ISF 10.1: more than this many moves in a row is illegal
    more_squares_rule: bool = True  # ISF 11, the no-chase rule
    return_after_moves: int | None = None  # Duel: back to a left square only after N moves
    max_plies: int | None = None  # draw when this many plies were played (Duel: 2 x 200)
    max_quiet_plies: int | None = None  # draw after this many plies without a battle
    spy_beats: frozenset[int] = frozenset({MARSHAL})  # ranks an attacking Spy defeats
    flag_on_back_row: bool = False
    # The console game's mini: each game picks `count` pieces (repeats allowed) among `ranks`, per
    # choice;
    # `army` is then one such draw (the default one until a game draws another).
    army_choices: tuple[tuple[int, tuple[int, ...]], ...] = ()
    notes: str = field(default="", compare=False)

    @property
    def size(self) -> int:
        return self.width * self.height

    # ------------------------------------------------------------------ rule settings
    def with_rules(self, **rules: object) -> Variant:
        """This variant with other rule settings, e.g. ``with_rules(two_squares_limit=3)``.

        Only the fields of RULE_FIELDS may change; ``None`` turns a limit, rule or cap off.
        RulesError for any other name or a value the engine cannot play. ``army`` is also
        accepted by a variant with `army_choices`: a {rank: count} mapping or (rank, count)
        pairs that the choices allow."""
        checked = {
            name: self._check_army(value) if name == "army" else _check_rule(name, value)
            for name, value in rules.items()
        }
        return _replaced(self, tuple(sorted(checked.items()))) if checked else self

    def draw_army(self, rng: random.Random) -> Variant:
        """This variant with an army drawn as the console game draws one; itself if it has no
        choices."""
        counts = Counter(dict(self.army))
        for count, ranks in self.army_choices:
            for rank in ranks:
                del counts[rank]
            counts.update(rng.choice(ranks) for _ in range(count))
        return self.with_rules(army=counts) if self.army_choices else self

    def _check_army(self, value: object) -> tuple[tuple[int, int], ...]:
        if not self.army_choices:
            raise RulesError(f"the {self.name} army is fixed; only the rules may change")
        try:
            pairs = value.items() if isinstance(value, Mapping) else value
            counts = Counter({int(rank): int(n) for rank, n in pairs})  # type: ignore[attr-defined]
        except (TypeError, ValueError):
            raise RulesError(f"an army is {{rank: count}}, not {value!r}") from None
        chosen = {rank for _, ranks in self.army_choices for rank in ranks}
        fixed = {rank: n for rank, n in self.army if rank not in chosen}
        others = {rank: n for rank, n in counts.items() if rank not in chosen and n}
        if (
            others != fixed
            or any(n < 0 for n in counts.values())
            or any(sum(counts[r] for r in ranks) != n for n, ranks in self.army_choices)
        ):
            raise RulesError(f"{value!r} is no {self.name} army: {self.army_rule()}")
        return tuple(sorted(((r, n) for r, n in counts.items() if n), key=_army_order))

    def army_rule(self) -> str:
        """The army in words, for errors and docs: 'flag, 3 bombs, ... and 1 of marshal/general'."""
        chosen = {rank for _, ranks in self.army_choices for rank in ranks}
        fixed = [
            f"{n} {RANK_NAMES[r]}{'s' if n > 1 else ''}" for r, n in self.army if r not in chosen
        ]
        picks = [
            f"{n} of {'/'.join(RANK_NAMES[r] for r in ranks)}" for n, ranks in self.army_choices
        ]
        return ", ".join(fixed + picks)

    def rule_settings(self) -> dict[str, object]:
        """Every rule setting in force, JSON-safe (spy_beats as a sorted list)."""
        return {name: _json_rule(getattr(self, name)) for name in RULE_FIELDS}

    def rule_overrides(self) -> dict[str, object]:
        """The rule settings that differ from the named variant, JSON-safe; {} for none.
        ``get_variant(v.name).with_rules(**v.rule_overrides()) == v`` always holds, and
        RulesError says so when a variant is no named variant with other rules."""
        base = VARIANTS.get(self.name)
        overrides = {
            name: _json_rule(getattr(self, name))
            for name in RULE_FIELDS
            if base is None or getattr(self, name) != getattr(base, name)
        }
        if base is not None and base.army_choices and self.army != base.army:
            overrides["army"] = [list(pair) for pair in self.army]
        if base is None or _rebuilt(base, overrides) != self:
            raise RulesError(
                f"this {self.name!r} variant is no named variant with other rule settings: "
                "its board, army or setup differ, so it cannot be saved by name"
            )
        return overrides

    @cached_property
    def army_counts(self) -> dict[int, int]:
        return dict(self.army)

    @cached_property
    def army_size(self) -> int:
        return sum(count for _, count in self.army)

    def setup_squares(self, color: int) -> tuple[int, ...]:
        return self._setup_squares[color]

    @cached_property
    def _setup_squares(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        red_rows = range(self.setup_rows)
        blue_rows = range(self.height - self.setup_rows, self.height)
        return (
            tuple(
                r * self.width + c
                for r in red_rows
                for c in range(self.width)
                if r * self.width + c not in self.lakes
            ),
            tuple(
                r * self.width + c
                for r in blue_rows
                for c in range(self.width)
                if r * self.width + c not in self.lakes
            ),
        )

    def depth(self, color: int, square: int) -> int:
        """How far a square is from `color`'s back row: 0 is the back row."""
        row = square // self.width
        return row if color == RED else self.height - 1 - row

    def is_back_row(self, color: int, square: int) -> bool:
        return self.depth(color, square) == 0

    def is_setup_square(self, color: int, square: int) -> bool:
        return (
            0 <= square < self.size
            and self.depth(color, square) < self.setup_rows
            and square not in self.lakes
        )

    def is_on_board(self, square: int) -> bool:
        return 0 <= square < self.size

    @cached_property
    def rays(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """For each square, the squares along each of the four directions up to an edge or lake."""
        out = []
        for sq in range(self.size):
            row, col = divmod(sq, self.width)
            sq_rays = []
            for dr, dc in ((1, 0), (-1, 0), (0, -1), (0, 1)):
                ray = []
                r, c = row + dr, col + dc
                while (
                    0 <= r < self.height
                    and 0 <= c < self.width
                    and r * self.width + c not in self.lakes
                ):
                    ray.append(r * self.width + c)
                    r, c = r + dr, c + dc
                if ray:
                    sq_rays.append(tuple(ray))
            out.append(tuple(sq_rays))
        return tuple(out)

    @cached_property
    def neighbors(self) -> tuple[frozenset[int], ...]:
        """Orthogonal neighbours of each square, lakes excluded."""
        return tuple(frozenset(ray[0] for ray in rays) for rays in self.rays)

    @cached_property
    def first_steps(self) -> tuple[tuple[int, ...], ...]:
        """For each square, the first square of each ray (its neighbours, in the rays' order)."""
        return tuple(tuple(ray[0] for ray in rays) for rays in self.rays)

    @cached_property
    def square_bits(self) -> tuple[int, ...]:
        """`1 << square` for each square: a set of squares as the sum of their bits."""
        return tuple(1 << square for square in range(self.size))

    @cached_property
    def step_bits(self) -> tuple[int, ...]:
        """For each square, the bits of its neighbours (the squares a step away)."""
        return tuple(sum(1 << ray[0] for ray in rays) for rays in self.rays)

    @cached_property
    def ray_bits(self) -> tuple[int, ...]:
        """For each square, the bits of every square along its rays (a Scout's reach on an
        empty board)."""
        return tuple(sum(1 << sq for ray in rays for sq in ray) for rays in self.rays)

    def step(self, color: int, square: int, direction: int, steps: int = 1) -> int | None:
        """Duel's (direction, steps) from a square, seen by `color`; None when off the board.

        Duel draws Red at the top facing down, so Red's right is towards column 0: its
        example {1,7,4,7} takes Red's scout from (1,7) seven squares right to (1,0)."""
        forward = 1 if color == RED else -1
        dr, dc = {
            FORWARD: (forward, 0),
            BACK: (-forward, 0),
            LEFT: (0, forward),
            RIGHT: (0, -forward),
        }[direction]
        row, col = divmod(square, self.width)
        row, col = row + dr * steps, col + dc * steps
        if 0 <= row < self.height and 0 <= col < self.width:
            return row * self.width + col
        return None


_POSITIVE_RULES = {
    # The least value that makes sense: a two-squares limit of 1 would forbid every step
    # back, and a return rule of 1 move would forbid nothing.
    "two_squares_limit": 2,
    "return_after_moves": 2,
    "max_plies": 1,
    "max_quiet_plies": 1,
}


def _check_rule(name: str, value: object) -> object:
    if name not in RULE_FIELDS:
        what = "is not a rule setting" if name in Variant.__dataclass_fields__ else "is unknown"
        raise RulesError(f"{name!r} {what}; the rule settings are: {', '.join(RULE_FIELDS)}")
    if name == "more_squares_rule":
        if not isinstance(value, bool):
            raise RulesError(f"more_squares_rule is True or False, not {value!r}")
        return value
    if name == "spy_beats":
        if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
            raise RulesError(f"spy_beats is a set of ranks, not {value!r}")
        ranks = frozenset(value)
        if not all(type(r) is int and SCOUT <= r <= MARSHAL for r in ranks):
            raise RulesError(f"spy_beats holds ranks from Scout (2) to Marshal (10), not {value!r}")
        return ranks
    least = _POSITIVE_RULES[name]
    if value is not None and (type(value) is not int or value < least):
        raise RulesError(
            f"{name} is None (off) or a whole number of at least {least}, not {value!r}"
        )
    return value


def _rebuilt(base: Variant, overrides: dict[str, object]) -> Variant | None:
    try:
        return base.with_rules(**overrides)
    except RulesError:  # e.g. an army no draw of the base variant gives
        return None


@lru_cache(maxsize=512)
def _replaced(variant: Variant, settings: tuple[tuple[str, object], ...]) -> Variant:
    """One object per variant and settings, so a game loaded again and again (the server
    loads one per action) reuses the rays and neighbours computed once."""
    fields: dict[str, Any] = dict(settings)
    return dataclasses.replace(variant, **fields)


def _army_order(pair: tuple[int, int]) -> tuple[bool, int]:
    """Pieces that move first, strongest first, then bombs and the flag (as the armies above)."""
    rank = pair[0]
    return rank in (BOMB, FLAG), -rank if rank not in (BOMB, FLAG) else rank


def _json_rule(value: object) -> object:
    return sorted(value) if isinstance(value, frozenset) else value


def _lakes(width: int, cells: tuple[tuple[int, int], ...]) -> frozenset[int]:
    return frozenset(r * width + c for r, c in cells)


_CLASSIC_LAKES = _lakes(10, tuple((r, c) for r in (4, 5) for c in (2, 3, 6, 7)))

CLASSIC = Variant(
    name="classic",
    title="Classic (ISF, 40 pieces)",
    width=10,
    height=10,
    lakes=_CLASSIC_LAKES,
    army=(
        (MARSHAL, 1),
        (GENERAL, 1),
        (COLONEL, 2),
        (MAJOR, 3),
        (CAPTAIN, 4),
        (LIEUTENANT, 4),
        (SERGEANT, 4),
        (MINER, 5),
        (SCOUT, 8),
        (SPY, 1),
        (BOMB, 6),
        (FLAG, 1),
    ),
    setup_rows=4,
    max_quiet_plies=400,
    notes=(
        "ISF rules: two-squares limit 5 and the more-squares rule. ISF has no move cap; this "
        "server adds a draw after 200 moves each without a battle."
    ),
)

BARRAGE = Variant(
    name="barrage",
    title="Barrage (8 pieces)",
    width=10,
    height=10,
    lakes=_CLASSIC_LAKES,
    army=((MARSHAL, 1), (GENERAL, 1), (MINER, 1), (SCOUT, 2), (SPY, 1), (BOMB, 1), (FLAG, 1)),
    setup_rows=4,
    max_quiet_plies=400,
    notes=(
        "Gravon/ISF quick battle: eight pieces anywhere in the four rows, the ISF rules; "
        "like classic, this server (not ISF) draws after 200 moves each without a battle."
    ),
)

DUEL = Variant(
    name="duel",
    title="Duel (10 pieces)",
    width=10,
    height=10,
    lakes=_CLASSIC_LAKES,
    army=((MARSHAL, 1), (GENERAL, 1), (MINER, 2), (SCOUT, 2), (SPY, 1), (BOMB, 2), (FLAG, 1)),
    setup_rows=4,
    two_squares_limit=None,
    more_squares_rule=False,
    return_after_moves=3,
    max_plies=400,
    notes="Stratego Duel software version: back to a square after three moves, draw at 200 each.",
)

MINI = Variant(
    name="mini",
    title="Mini (5x5)",
    width=5,
    height=5,
    lakes=frozenset(),
    army=(
        (MARSHAL, 1),
        (COLONEL, 1),
        (MAJOR, 1),
        (CAPTAIN, 1),
        (MINER, 1),
        (SPY, 1),
        (BOMB, 3),
        (FLAG, 1),
    ),
    setup_rows=2,
    two_squares_limit=3,
    max_quiet_plies=200,
    spy_beats=frozenset({MARSHAL, GENERAL}),
    flag_on_back_row=True,
    army_choices=((1, (MARSHAL, GENERAL)), (3, (COLONEL, MAJOR, CAPTAIN, LIEUTENANT, SERGEANT))),
    notes=(
        "The 5x5 console game: ten pieces in two rows, the flag on the back row; a game may "
        "draw its army at random (Marshal or General, three of Colonel..Sergeant)."
    ),
)

VARIANTS: dict[str, Variant] = {v.name: v for v in (CLASSIC, BARRAGE, DUEL, MINI)}


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise NotationError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}") from None


__all__ = [
    "RULE_FIELDS",
    "Variant",
    "VARIANTS",
    "get_variant",
    "CLASSIC",
    "BARRAGE",
    "DUEL",
    "MINI",
    "RED",
    "BLUE",
]
