"""The actions on a game. Each one is one transaction that locks the game row.

By concern: `unit` (the unit of work every action goes through: lock, settle the clock,
load, decide, save, emit, publish), `events` (write and publish the numbered events),
`endings`, `seats`, `setup`, `play`, `clock` (flag fall) and `absence` (players who leave).
Other code imports the public names from here.
"""

from __future__ import annotations

from .. import clocks, presence
from ..errors import ServiceError
from ..identity import holds_seat
from . import unit
from .absence import (
    announces_presence,
    claim_victory,
    emit_absent,
    forfeit_seat,
    player_back,
    player_left,
    require_claimable,
)
from .clock import expire, sweep_expired
from .endings import abort, finish, rate_on_finish
from .events import emit, outbox, private_event, publish
from .play import agree_draw, answer_draw, move, offer_draw, record_move, require_playing, resign
from .seats import (
    VARIANT_NAMES,
    check_seat,
    check_variant,
    create_game,
    join_game,
    take_seat,
    watch,
)
from .setup import (
    clear_setup,
    own_pieces,
    place_piece,
    random_setup,
    ready,
    remove_piece,
    require_setup,
    setup_event,
    submit_setup,
)
from .unit import (
    COLOR_NAMES,
    Action,
    commit,
    computer_level,
    engine_error,
    load,
    lock,
    player_color,
    run,
    settle_clock,
    time_out_error,
    wake_computers_on_commit,
)

# presence reports seats that went and came back, and its sweep ends games out of time,
# through these (it does not import this package).
presence.connect_services(left=player_left, back=player_back, expired=sweep_expired)

__all__ = [
    "COLOR_NAMES",
    "VARIANT_NAMES",
    "Action",
    "ServiceError",
    "abort",
    "agree_draw",
    "announces_presence",
    "answer_draw",
    "check_seat",
    "check_variant",
    "claim_victory",
    "clear_setup",
    "clocks",
    "commit",
    "computer_level",
    "create_game",
    "emit",
    "emit_absent",
    "engine_error",
    "expire",
    "finish",
    "forfeit_seat",
    "holds_seat",
    "join_game",
    "load",
    "lock",
    "move",
    "offer_draw",
    "outbox",
    "own_pieces",
    "place_piece",
    "player_back",
    "player_color",
    "player_left",
    "private_event",
    "publish",
    "random_setup",
    "rate_on_finish",
    "ready",
    "record_move",
    "remove_piece",
    "require_claimable",
    "require_playing",
    "require_setup",
    "resign",
    "run",
    "settle_clock",
    "setup_event",
    "submit_setup",
    "sweep_expired",
    "take_seat",
    "time_out_error",
    "unit",
    "wake_computers_on_commit",
    "watch",
]
