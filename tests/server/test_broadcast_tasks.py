"""A broadcast started on the serving loop runs to its end: the loop itself holds its tasks
only weakly, and one nobody held was destroyed while pending (a lost frame, and asyncio's
"Task was destroyed but it is pending!" in the log)."""

from __future__ import annotations

import asyncio
import gc

import pytest

from games.transport import broadcast


@pytest.mark.asyncio
async def test_a_started_broadcast_is_held_until_it_is_done() -> None:
    gate = asyncio.Event()
    finished: list[bool] = []

    async def slow_send() -> None:
        await gate.wait()
        finished.append(True)

    loop = asyncio.get_running_loop()
    task = loop.create_task(slow_send())
    broadcast._keep_running(task)
    gc.collect()
    assert task in broadcast._running  # held while pending, whatever the collector does
    gate.set()
    await task
    await asyncio.sleep(0)  # the done callbacks
    assert finished == [True]
    assert task not in broadcast._running  # and let go once done: the set stays bounded
