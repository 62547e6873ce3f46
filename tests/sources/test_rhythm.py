"""The simulated players' rhythm: the pause runs from the start of an act, so a controller that
takes its time over an act (a busy machine) does not slow the players down while it keeps up."""

from __future__ import annotations

import asyncio
import time

from controller.sources.base import Rhythm


def test_the_pause_counts_from_the_act_not_from_its_end() -> None:
    async def one_act() -> float:
        rhythm = Rhythm()
        start = time.monotonic()
        rhythm.act()
        time.sleep(0.3)  # the controller busy with the act
        await rhythm.pause(0.4)
        return time.monotonic() - start

    elapsed = asyncio.run(one_act())
    assert 0.39 <= elapsed < 0.6  # 0.7 if the pause ran from the act's end


def test_a_controller_behind_the_players_gets_no_pause() -> None:
    async def one_act() -> float:
        rhythm = Rhythm()
        rhythm.act()
        time.sleep(0.2)  # longer than the pause: the next act comes at once
        start = time.monotonic()
        await rhythm.pause(0.1)
        return time.monotonic() - start

    assert asyncio.run(one_act()) < 0.05


def test_an_injected_clock_decides() -> None:
    now = [100.0]
    rhythm = Rhythm(clock=lambda: now[0])
    rhythm.act()
    now[0] += 5.0
    start = time.monotonic()
    asyncio.run(rhythm.pause(5.0))  # exactly due: no wait
    assert time.monotonic() - start < 0.05 and rhythm.last == 100.0
