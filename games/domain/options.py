"""A game's options, chosen when it is created: the time control and the rule settings.

The one place that lists the time controls and the two-squares choices the lobby offers, and
the time constants of the setup deadline and of abandonment (docs/protocol.md, "Clocks" and
"Abandonment"). Pure data and parsing: no database.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _

from .. import engine
from . import words
from .errors import ServiceError

SETUP_SECONDS = 300  # a timed game: both players must be READY this long after both sat down
ABANDON_SECONDS = 60  # a player gone this long (no socket) may be claimed against
UNTIMED = "untimed"
TWO_SQUARES_CHOICES = (5, 3)  # 5 = ISF; 3 = the mini variant's default
ARMY_DRAWN = "drawn"  # the form's army choice: drawn as the console game draws it ("" = standard)


@dataclass(frozen=True)
class TimeControl:
    """Fischer: `minutes` on each clock, `increment` seconds added after each of one's moves."""

    minutes: int
    increment: int

    @property
    def id(self) -> str:
        return f"{self.minutes}+{self.increment}"

    @property
    def base_ms(self) -> int:
        return self.minutes * 60_000

    @property
    def increment_ms(self) -> int:
        return self.increment * 1000

    @property
    def label(self) -> str:
        """For people, in the active language (read when a page is rendered)."""
        return _("%(minutes)s min + %(increment)s s a move") % {
            "minutes": self.minutes,
            "increment": self.increment,
        }

    def to_dict(self) -> dict:
        return {"id": self.id, "base_ms": self.base_ms, "increment_ms": self.increment_ms}


# The time controls the lobby offers, fastest first.
TIME_CONTROLS: tuple[TimeControl, ...] = (
    TimeControl(5, 3),
    TimeControl(10, 5),
    TimeControl(20, 10),
)
BY_ID = {control.id: control for control in TIME_CONTROLS}


def time_control(value: object) -> TimeControl | None:
    """The time control named `value` ("5+3"...); None for untimed (None, "" or "untimed")."""
    if value is None or value in ("", UNTIMED):
        return None
    if not isinstance(value, str) or value not in BY_ID:
        known = ", ".join([UNTIMED, *BY_ID])
        raise ServiceError(
            "bad_time_control",
            _("Unknown time control %(value)r; choose %(known)s.")
            % {"value": value, "known": known},
        )
    return BY_ID[value]


def stored_time_control(base_ms: int | None, increment_ms: int) -> TimeControl | None:
    """The time control of a stored game (None: untimed)."""
    if base_ms is None:
        return None
    return TimeControl(base_ms // 60_000, increment_ms // 1000)


def checked_rules(variant: str, rules: object) -> dict:
    """`rules` (rule setting -> value) as the engine accepts them for `variant`; {} for None.
    ServiceError `bad_rules` with the engine's reason otherwise."""
    if rules is None:
        return {}
    if not isinstance(rules, Mapping) or not all(isinstance(k, str) for k in rules):
        raise ServiceError("bad_rules", _("rules must be an object of rule setting -> value."))
    try:
        played = engine.get_variant(variant).with_rules(**rules)
        return played.rule_overrides()
    except (engine.RulesError, engine.NotationError) as exc:
        raise ServiceError("bad_rules", str(exc)) from exc


def has_two_squares_rule(variant: str) -> bool:
    return variant in engine.VARIANTS and engine.get_variant(variant).two_squares_limit is not None


def has_army_choices(variant: str) -> bool:
    return variant in engine.VARIANTS and bool(engine.get_variant(variant).army_choices)


def form_rules(variant: str, two_squares: str | None, army: str | None = None) -> dict | None:
    """The lobby form's rule choices: `two_squares` "" (the variant's own) or one of
    TWO_SQUARES_CHOICES, only for a variant that has the two-squares rule; `army` "" (the
    standard one) or ARMY_DRAWN, only for a variant that draws its army (mini)."""
    rules = two_squares_rule(variant, two_squares) | drawn_army(variant, army)
    return rules or None


def drawn_army(variant: str, army: str | None) -> dict:
    value = (army or "").strip()
    if not value:
        return {}
    if value != ARMY_DRAWN:
        raise ServiceError(
            "bad_rules",
            _("The army is standard or %(drawn)r, not %(value)r.")
            % {"drawn": ARMY_DRAWN, "value": value},
        )
    if not has_army_choices(variant):
        raise ServiceError(
            "bad_rules",
            _("The %(variant)s army is fixed: it cannot be drawn.") % {"variant": variant},
        )
    drawn = engine.get_variant(variant).draw_army(random.SystemRandom())
    return {"army": [list(pair) for pair in drawn.army]}


def two_squares_rule(variant: str, two_squares: str | None) -> dict:
    value = (two_squares or "").strip()
    if not value:
        return {}
    if value not in {str(n) for n in TWO_SQUARES_CHOICES}:
        choices = " or ".join(str(n) for n in TWO_SQUARES_CHOICES)
        raise ServiceError(
            "bad_rules",
            _("The two-squares limit is %(choices)s, not %(value)r.")
            % {"choices": choices, "value": value},
        )
    if not has_two_squares_rule(variant):
        raise ServiceError(
            "bad_rules",
            _("The %(variant)s variant has no two-squares rule.") % {"variant": variant},
        )
    return {"two_squares_limit": int(value)}


def rules_text(variant: str, overrides: Mapping) -> str:
    """The rules in force that people choose between, e.g. "two-squares rule: 3 moves", and
    in mini the pieces of the army: "... · army: General, Colonel, Sergeant ×2". In the
    active language."""
    if variant not in engine.VARIANTS:
        return ""
    played = engine.get_variant(variant).with_rules(**overrides)
    if played.two_squares_limit is not None:
        isf = " (ISF)" if played.two_squares_limit == 5 else ""
        text = _("two-squares rule: %(moves)s moves") % {"moves": played.two_squares_limit}
        text += isf
    elif played.return_after_moves:
        text = _("return rule: %(moves)s moves") % {"moves": played.return_after_moves}
    else:
        text = _("no two-squares rule")
    if played.army_choices:  # mini: which pieces this game plays, standard or drawn
        text += " · " + _("army: %(pieces)s") % {"pieces": chosen_pieces(played)}
    return text


def chosen_pieces(variant: engine.Variant) -> str:
    """The chosen part of a mini army in words, in the active language: "General, Colonel,
    Sergeant ×2" (a count as the tray shows it)."""
    chosen = {rank for _, ranks in variant.army_choices for rank in ranks}
    return ", ".join(
        f"{words.rank_name(rank)} ×{n}" if n > 1 else words.rank_name(rank)
        for rank, n in variant.army
        if rank in chosen
    )


def summary(variant: str, control: TimeControl | None, overrides: Mapping) -> str:
    """One line for the game page: "5+3 (5 min + 3 s a move) · two-squares rule: 5 moves",
    in the active language (the page's)."""
    clock = f"{control.id} ({control.label})" if control else _("untimed")
    rules = rules_text(variant, overrides)
    return f"{clock} · {rules}" if rules else clock
