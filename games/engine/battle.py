"""Battles: who wins when one piece attacks another."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .pieces import BOMB, FLAG, MINER, RANKS, SPY
from .variants import Variant

ATTACKER = "attacker"
DEFENDER = "defender"
BOTH = "both"  # equal ranks: both pieces are removed


@dataclass(frozen=True)
class Battle:
    attacker: int  # the attacker's rank
    defender: int  # the defender's rank
    result: str  # ATTACKER, DEFENDER or BOTH: who stays on the board

    def to_dict(self) -> dict:
        return {"attacker": self.attacker, "defender": self.defender, "result": self.result}


def resolve_battle(attacker: int, defender: int, variant: Variant) -> str:
    """The winner of `attacker` striking `defender`, by the variant's rules."""
    if defender == FLAG:
        return ATTACKER
    if defender == BOMB:
        return ATTACKER if attacker == MINER else DEFENDER
    if attacker == SPY and defender in variant.spy_beats:
        return ATTACKER
    if attacker > defender:
        return ATTACKER
    if attacker < defender:
        return DEFENDER
    return BOTH


@cache
def battle_table(variant: Variant) -> tuple[tuple[Battle | None, ...], ...]:
    """`table[attacker][defender]`: the Battle of those ranks by the variant's rules
    (`resolve_battle`), one immutable object per pair (None for a number that is no rank)."""
    size = max(RANKS) + 1
    return tuple(
        tuple(
            Battle(a, d, resolve_battle(a, d, variant)) if a in RANKS and d in RANKS else None
            for d in range(size)
        )
        for a in range(size)
    )
