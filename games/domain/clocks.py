"""The clock of a timed game and the times of abandonment, on a Game row (no queries).

Fischer clocks: each side has its remaining time in ms. Only the clock of the side to move
runs, from `turn_started`; `deadline` is `turn_started` plus that side's remaining time, so
"the time ran out" is `now >= deadline`, and the sweep finds such games by one indexed
column. After a move the mover keeps what was left plus the increment and the opponent's
clock starts; a move that ends the game gets no increment (the clocks stop). In the setup
of a timed game one deadline, SETUP_SECONDS after both seats were taken, runs for both
players. The services apply these under the row lock (games/services/);
docs/protocol.md, "Clocks" and "Abandonment", says what clients see.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from .models import BLUE, RED, Game
from .options import ABANDON_SECONDS, SETUP_SECONDS, TimeControl, stored_time_control

SETUP, PLAYING = Game.Status.SETUP, Game.Status.PLAYING


def now() -> datetime:
    """The time every clock decision uses (a test may replace it)."""
    return timezone.now()


def ms(delta: timedelta) -> int:
    return delta // timedelta(milliseconds=1)


def iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


# ---------------------------------------------------------------- the clock


def set_control(game: Game, control: TimeControl | None) -> None:
    """A new game's clock: both sides get the base time (untimed: no clock at all)."""
    if control is None:
        game.clock_base_ms = None
        return
    game.clock_base_ms = control.base_ms
    game.clock_increment_ms = control.increment_ms
    game.red_clock_ms = game.blue_clock_ms = control.base_ms


def running(game: Game) -> int | None:
    """The side whose clock runs: in a timed game in play, the side to move (Red moves first
    and the sides alternate, so it is the ply's parity); None otherwise."""
    if game.is_timed and game.status == PLAYING and game.deadline is not None:
        return game.ply % 2
    return None


def start_setup(game: Game, at: datetime) -> None:
    """Both seats are taken: the setup begins (and, in a timed game, its deadline runs)."""
    game.setup_started = game.turn_started = at
    game.deadline = at + timedelta(seconds=SETUP_SECONDS) if game.is_timed else None


def start_play(game: Game, at: datetime) -> None:
    """Both players are ready: Red's clock starts."""
    game.turn_started = at
    game.deadline = at + timedelta(milliseconds=game.clock_ms(RED)) if game.is_timed else None


def expired(game: Game, at: datetime) -> bool:
    """The running clock, or the setup time, ran out."""
    return game.is_active and game.deadline is not None and at >= game.deadline


def left_ms(game: Game, color: int, at: datetime) -> int:
    """`color`'s remaining time as of `at`."""
    if running(game) == color:
        return max(0, ms(game.deadline - at))
    return game.clock_ms(color)


def after_move(game: Game, color: int, at: datetime) -> None:
    """`color` moved at `at` (in time): charge its thinking, add the increment, and start the
    opponent's clock. (`at` is never before the turn began: clocks of several processes.)"""
    if game.turn_started is not None:
        at = max(at, game.turn_started)
    if game.is_timed and game.deadline is not None:
        left = max(0, ms(game.deadline - at))
        game.set_clock_ms(color, left + game.clock_increment_ms)
        game.deadline = at + timedelta(milliseconds=game.clock_ms(1 - color))
    game.turn_started = at


def stop(game: Game, at: datetime) -> None:
    """The game is over: the running clock keeps what was left as of `at` and stops. No
    increment, also when a move ended the game (the move service stops the clock instead of
    after_move)."""
    side = running(game)
    if side is not None:
        game.set_clock_ms(side, left_ms(game, side, at))
    game.deadline = None


def seconds_left(game: Game, at: datetime) -> float | None:
    """Seconds until the game's deadline (0 when past), None when no clock runs."""
    if not game.is_active or game.deadline is None:
        return None
    return max(0.0, (game.deadline - at).total_seconds())


def snapshot(game: Game, at: datetime) -> dict | None:
    """The clock as frames carry it, as of `at`; None for an untimed game."""
    control = stored_time_control(game.clock_base_ms, game.clock_increment_ms)
    if control is None:
        return None
    in_setup = game.status == SETUP and game.deadline is not None
    return {
        "control": control.id,
        "remaining_ms": [left_ms(game, RED, at), left_ms(game, BLUE, at)],
        "running": running(game),
        "setup_ms": max(0, ms(game.deadline - at)) if in_setup else None,
    }


# ---------------------------------------------------------------- abandonment


def claims_apply(game: Game) -> bool:
    """Abandonment can be claimed in this game now: during setup, or in play when untimed
    (a timed game's clock ends it instead)."""
    return game.status == SETUP or (game.status == PLAYING and not game.is_timed)


def away_since(game: Game, color: int) -> datetime | None:
    """Since when `color` counts as gone (None: not gone). Time spent waiting for an opponent
    never counts: in setup and in play alike, absence counts from the setup's start at the
    earliest (a player who left while waiting is gone from the moment the opponent sat down)."""
    left = game.left_at(color)
    if left is None or game.status not in (SETUP, PLAYING):
        return None
    if game.setup_started is not None:
        return max(left, game.setup_started)
    return left


def claim_time(game: Game, color: int) -> datetime | None:
    """When the opponent of a gone `color` may claim victory; None if they may not."""
    since = away_since(game, color)
    if since is None or not claims_apply(game):
        return None
    return since + timedelta(seconds=ABANDON_SECONDS)


def away(game: Game, color: int, connected: set[int], at: datetime) -> dict | None:
    """What frames say of a gone seat: since when, and the ms until a claim is possible
    (0: now; None: not in this game or phase). None while the seat is connected."""
    since = away_since(game, color)
    if since is None or color in connected:
        return None
    claim = claim_time(game, color)
    return {"since": iso(since), "claim_ms": None if claim is None else max(0, ms(claim - at))}
