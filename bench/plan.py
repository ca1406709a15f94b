"""What a run measures: the full plan, and the QUICK one (under 3 minutes)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Plan:
    echo_frames: int
    one_game_moves: int
    rates: tuple[int, ...]
    step_seconds: float
    open_loop_games: int
    spectators: tuple[int, ...]
    fan_moves: int
    fan_out_processes: tuple[int, ...]  # the configurations (1 or 2 processes) with fan-out
    stop_when_saturated: bool  # skip the higher rates once a rate achieved under half
    move_timeout: float  # seconds before a delivery counts as lost


FULL = Plan(echo_frames=1000, one_game_moves=200, rates=(25, 50, 100, 200, 300, 400),
            step_seconds=10, open_loop_games=50, spectators=(50, 100, 200), fan_moves=10,
            fan_out_processes=(1, 2), stop_when_saturated=False, move_timeout=10)  # fmt: skip
QUICK = Plan(echo_frames=200, one_game_moves=30, rates=(25, 50, 100, 200, 300, 400),
             step_seconds=3, open_loop_games=50, spectators=(200,), fan_moves=3,
             fan_out_processes=(1,), stop_when_saturated=True, move_timeout=3)  # fmt: skip
