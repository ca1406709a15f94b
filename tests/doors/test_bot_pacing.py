"""The bot client keeps its sends under the server's flood limit, however fast the
opponent answers."""

from __future__ import annotations

import asyncio

from clients.bot.connection import SEND_INTERVAL, Pacer
from games.transport.guards import RATE_PER_SECOND


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def time(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_the_pace_is_under_the_servers_flood_rate() -> None:
    assert 1 / SEND_INTERVAL < RATE_PER_SECOND


def test_sends_wait_out_the_interval_and_no_longer() -> None:
    clock = FakeClock()
    pacer = Pacer(0.1, clock=clock.time, sleep=clock.sleep)

    async def sends() -> None:
        await pacer.wait()  # the first send goes at once
        clock.now += 0.03
        await pacer.wait()  # 0.03 s later: waits the other 0.07
        clock.now += 0.5
        await pacer.wait()  # long after: at once

    asyncio.run(sends())
    assert len(clock.slept) == 1
    assert abs(clock.slept[0] - 0.07) < 1e-9
