"""Battles: who wins when one piece attacks another."""

from __future__ import annotations

from dataclasses import dataclass

from .pieces import BOMB, FLAG, MINER, SPY
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
