"""The simulated players' rhythm: the pause runs from the start of an act, so a controller that
takes its time over an act (a busy machine) does not slow the players down while it keeps up.

A fake clock decides and the sleep the pause asks for is recorded, not timed (issue 29: bounds
of 0.05 s and 0.39-0.6 s on the wall clock failed, or proved nothing, on a busy machine)."""

from __future__ import annotations

import asyncio
import time

import pytest

from controller.sources import base
from controller.sources.base import Rhythm


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def slept(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """What the rhythm asks asyncio to sleep, in order (the sleep itself returns at once)."""
    asked: list[float] = []

    async def sleep(delay: float) -> None:
        asked.append(delay)

    monkeypatch.setattr(base.asyncio, "sleep", sleep)
    return asked


def test_the_pause_counts_from_the_act_not_from_its_end(slept: list[float]) -> None:
    clock = Clock()
    rhythm = Rhythm(clock=clock)
    rhythm.act()
    clock.now += 0.3  # the controller busy with the act
    asyncio.run(rhythm.pause(0.4))
    assert slept == [pytest.approx(0.1)]  # 0.4 if the pause ran from the act's end


def test_a_controller_behind_the_players_gets_no_pause(slept: list[float]) -> None:
    clock = Clock()
    rhythm = Rhythm(clock=clock)
    rhythm.act()
    clock.now += 0.2  # longer than the pause: the next act comes at once
    asyncio.run(rhythm.pause(0.1))
    assert slept == [0]


def test_exactly_due_is_no_wait_and_the_act_stays_where_it_began(slept: list[float]) -> None:
    clock = Clock()
    rhythm = Rhythm(clock=clock)
    rhythm.act()
    clock.now += 5.0
    asyncio.run(rhythm.pause(5.0))
    assert slept == [0] and rhythm.last == 100.0
    rhythm.act()  # the next act begins now
    asyncio.run(rhythm.pause(2.0))
    assert slept == [0, 2.0] and rhythm.last == 105.0


def test_the_default_clock_is_the_monotonic_one() -> None:
    assert Rhythm().clock is time.monotonic
