"""How games are lost: the patterns counted from a finished game's moves.

For one side of a game, `suffered` counts what happened to it:

- ``flag_by_miner``: a Miner took its flag (1 or 0);
- ``marshal_to_spy``: its Marshal was taken by a Spy;
- ``marshals_traded``: its Marshal and the enemy Marshal took each other;
- ``high_on_bomb``: its Captains and up that attacked a bomb and died (a count);
- ``out_of_moves``: it lost with no legal move left (1 or 0);
- ``lost_by_300``: the worth (`evaluation.BASE_VALUES`) of its pieces captured by ply 300,
  for a game that lasted that long (``reached_300`` is then 1).

`tournament.format_patterns` sums them over a tournament's games against outside programs, for the
games our level lost and for all its games.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from games.engine.battle import ATTACKER, BOTH, DEFENDER
from games.engine.game import Game
from games.engine.pieces import (
    BOMB,
    CAPTAIN,
    FLAG,
    GENERAL,
    MARSHAL,
    MINER,
    RANK_NAMES,
    SPY,
    opponent,
)
from games.engine.results import Termination

from .dumps import replayed_outcome
from .evaluation import BASE_VALUES

PATTERNS: dict[str, str] = {
    "flag_by_miner": "flag taken by a miner",
    "marshal_to_spy": "marshal taken by the spy",
    "marshals_traded": "marshals traded",
    "high_on_bomb": "captains and up lost on bombs",
    "out_of_moves": "out of movable pieces",
}
MATERIAL_PLY = 300


def suffered(game: Game, color: int) -> dict[str, int]:
    """What happened to `color` in `game`, by pattern (see the module docstring)."""
    counts = dict.fromkeys(PATTERNS, 0) | {"lost_by_300": 0, "reached_300": 0}
    lost = 0.0
    for result in game.history:
        if result.ply == MATERIAL_PLY:
            counts["reached_300"], counts["lost_by_300"] = 1, round(lost)
        battle = result.battle
        if battle is None:
            continue
        lost += _worth_lost(battle.attacker, battle.defender, battle.result, result.color == color)
        if result.color == color:
            if battle.defender == BOMB and battle.attacker >= CAPTAIN and battle.result == DEFENDER:
                counts["high_on_bomb"] += 1
            if battle.attacker == MARSHAL == battle.defender and battle.result == BOTH:
                counts["marshals_traded"] += 1
        else:
            if battle.defender == FLAG and battle.attacker == MINER:
                counts["flag_by_miner"] = 1
            if battle.attacker == SPY and battle.defender == MARSHAL and battle.result == ATTACKER:
                counts["marshal_to_spy"] += 1
            if battle.attacker == MARSHAL == battle.defender and battle.result == BOTH:
                counts["marshals_traded"] += 1
    outcome = replayed_outcome(game)  # a replay of a game the referee ended at once, too
    if (
        outcome is not None
        and outcome.termination == Termination.NO_MOVES
        and outcome.winner == opponent(color)
    ):
        counts["out_of_moves"] = 1
    return counts


def _worth_lost(attacker: int, defender: int, result: str, attacking: bool) -> float:
    """What a battle took from one side: its attacker's worth if `attacking` and the
    attacker died, else its defender's if that died (the flag counts nothing here)."""
    if attacking:
        return BASE_VALUES[attacker] if result in (DEFENDER, BOTH) else 0.0
    return BASE_VALUES[defender] if result in (ATTACKER, BOTH) and defender != FLAG else 0.0


@dataclass(frozen=True)
class Fight:
    """One battle of a finished game, with whether each piece had fought before it."""

    pieces: tuple[tuple[int, int], tuple[int, int]]  # (owner, rank): attacker, defender
    known_before: tuple[bool, bool]  # the attacker's, the defender's
    dead: tuple[int, ...]  # 0 the attacker, 1 the defender
    traded: bool


def fights(game: Game) -> Iterator[Fight]:
    """The battles of `game` in order. A piece is known once it has fought; every piece is
    hidden at the start."""
    known: dict[int, bool] = {}  # square -> whether the piece there has fought
    for result in game.history:
        src, dst = result.move.src, result.move.dst
        battle = result.battle
        if battle is None:
            known[dst] = known.pop(src, False)
            continue
        before = (known.pop(src, False), known.get(dst, False))
        yield Fight(
            ((result.color, battle.attacker), (1 - result.color, battle.defender)),
            before,
            {ATTACKER: (1,), DEFENDER: (0,), BOTH: (0, 1)}[battle.result],
            battle.result == BOTH,
        )
        known.pop(dst, None)
        if battle.result != BOTH:  # the survivor, on `dst`, has fought
            known[dst] = True


def big_piece_losses(game: Game, color: int) -> Counter[str]:
    """How `color` lost its Marshal and General in a game played from its setups: for each,
    what took it (a trade, or the enemy piece, hidden or known before the battle) and who
    attacked, e.g. "general: hidden marshal, they attacked"; a trade also says which of the
    two had fought before, e.g. "marshal: traded (ours known, theirs known), they attacked"."""
    found: Counter[str] = Counter()
    for fight in fights(game):
        for side in fight.dead:
            owner, rank = fight.pieces[side]
            if owner != color or rank not in (MARSHAL, GENERAL):
                continue
            other = fight.pieces[1 - side][1]
            if fight.traded:
                ours, theirs = fight.known_before[side], fight.known_before[1 - side]
                how = f"traded (ours {_known(ours)}, theirs {_known(theirs)})"
            else:
                how = ("known " if fight.known_before[1 - side] else "hidden ") + RANK_NAMES[other]
            who = "we attacked" if side == 0 else "they attacked"
            found[f"{RANK_NAMES[rank]}: {how}, {who}"] += 1
    return found


def _known(fought: bool) -> str:
    return "known" if fought else "hidden"


def material_lost(game: Game, color: int) -> Counter[str]:
    """Where `color`'s material went (`evaluation.BASE_VALUES`, bombs and the flag apart):
    by who attacked, whether the enemy piece had fought before (known) or not (hidden), and
    whether both pieces went, e.g. "they attacked, known". Also, once, how its Marshal first
    fought, e.g. "first fight of the marshal: they attacked, hidden scout"."""
    found: Counter[str] = Counter()
    marshal_fought = False
    for fight in fights(game):
        for side, (owner, rank) in enumerate(fight.pieces):
            if owner != color:
                continue
            other = "known" if fight.known_before[1 - side] else "hidden"
            who = "we attacked" if side == 0 else "they attacked"
            if rank == MARSHAL and not marshal_fought:
                marshal_fought = True
                enemy = RANK_NAMES[fight.pieces[1 - side][1]]
                found[f"first fight of the marshal: {who}, {other} {enemy}"] += 1
            if side in fight.dead and rank not in (BOMB, FLAG):
                traded = ", traded" if fight.traded else ""
                found[f"{who}, {other}{traded}"] += round(BASE_VALUES[rank])
    return found


def both_sides(game: Game | None) -> tuple[Mapping[str, int], Mapping[str, int]]:
    """`suffered` for Red and for Blue; empty when the game is not at hand."""
    if game is None:
        return ({}, {})
    return (suffered(game, 0), suffered(game, 1))


__all__ = ["PATTERNS", "big_piece_losses", "both_sides", "material_lost", "suffered"]
