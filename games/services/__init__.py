"""The actions on a game. Each one is one unit of work (`unit.apply`: lock the game row,
settle its clock, let the engine decide, save, publish after the commit).

By concern: `unit` (the unit of work) with `work` (what a unit decided, as values) and
`repository` (the lock and write SQL), `events` (the numbered events), `endings` (`finish`,
the only way a game ends), `signals` (what the rest of the site reacts to), `seats`,
`setup_phase`, `play`, `clock` (flag fall) and `absence` (players who leave). Other code imports
the public names from here.
"""

from __future__ import annotations

from ..domain.errors import ServiceError
from . import unit
from .absence import (
    announces_presence,
    claim_victory,
    forfeit_seat,
    player_back,
    player_left,
    require_claimable,
)
from .clock import expire, sweep_expired
from .endings import abort, finish
from .play import answer_draw, move, offer_draw, require_playing, resign
from .seats import (
    VARIANT_NAMES,
    adopt_guest_games,
    check_seat,
    check_variant,
    create_game,
    join_game,
    watch,
)
from .setup_phase import (
    clear_setup,
    own_pieces,
    place_piece,
    random_setup,
    ready,
    remove_piece,
    require_setup,
    submit_setup,
)
from .unit import COLOR_NAMES, Action, apply, computer_level, engine_error, lock, run
from .work import Result, UnitOfWork

__all__ = [
    "COLOR_NAMES",
    "VARIANT_NAMES",
    "Action",
    "Result",
    "ServiceError",
    "UnitOfWork",
    "abort",
    "adopt_guest_games",
    "announces_presence",
    "answer_draw",
    "apply",
    "check_seat",
    "check_variant",
    "claim_victory",
    "clear_setup",
    "computer_level",
    "create_game",
    "engine_error",
    "expire",
    "finish",
    "forfeit_seat",
    "join_game",
    "lock",
    "move",
    "offer_draw",
    "own_pieces",
    "place_piece",
    "player_back",
    "player_left",
    "random_setup",
    "ready",
    "remove_piece",
    "require_claimable",
    "require_playing",
    "require_setup",
    "resign",
    "run",
    "submit_setup",
    "sweep_expired",
    "unit",
    "watch",
]
