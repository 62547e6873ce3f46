"""The simulated players wait for the controller to register each act: a controller that is
behind (scans queued, events unstored, its loop held up by a slow disk) is waited for; only one
that sits idle without registering the act is reported as a stall."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import pytest

from controller.sources.virtual import EventCounter, Sensing, SimOptions, SimRun, wait_registered
from controller.table import PresenceTracker
from firmware_bridge.types import ChannelScan

UID = "04:0D:9A:DB:9E:3F:8A"
CHANNELS = {"seat3/0": "rack:3", "centre/0": "discard"}


def _sensing() -> Sensing:
    def make() -> PresenceTracker:
        return PresenceTracker(CHANNELS, {UID: "7d"}, absent_after=0.15, confirm_reads=1)

    return Sensing(make(), make)


async def test_an_idle_controller_that_never_registers_the_act_is_a_stall(
    caplog: pytest.LogCaptureFixture,
) -> None:
    sensing, run = _sensing(), SimRun()
    sensing.tracker.scan(ChannelScan("seat3/0", frozenset(), time.monotonic()))
    start = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="controller.sim"):
        # a generous deadline only to give up: a busy host may hold the loop up (then the
        # wait rightly starts again), so how long past 0.3 s the stall comes is not judged
        await asyncio.wait_for(wait_registered(
            asyncio.Queue(), sensing, EventCounter(), {UID: "rack:3"},
            SimOptions(register_timeout=0.3), run), 120)
    # never before the timeout (a lower bound: no load makes time pass slower)
    assert run.stalls == 1 and time.monotonic() - start >= 0.3
    assert f"has not registered [('{UID}', 'rack:3')]" in caplog.text
    assert f"{UID}: never read" in caplog.text  # what the tracker believed, for the log


async def test_a_controller_behind_on_its_work_is_waited_for() -> None:
    """Scans queued in the inbox and a loop held up for longer than the timeout: no stall; the
    act registers once the controller catches up."""
    sensing, run = _sensing(), SimRun()
    inbox: asyncio.Queue[Any] = asyncio.Queue()
    options = SimOptions(register_timeout=0.3)
    waiting = asyncio.create_task(
        wait_registered(inbox, sensing, EventCounter(), {UID: "rack:3"}, options, run))
    await inbox.put("a scan not yet handled")  # the controller is behind
    await asyncio.sleep(0.6)
    time.sleep(0.6)  # the event loop held up (an fsync on a slow disk), longer than the timeout
    await asyncio.sleep(0.05)
    inbox.get_nowait()  # caught up: the tile is read where the world put it
    sensing.tracker.scan(ChannelScan("seat3/0", frozenset({UID}), time.monotonic()))
    await asyncio.wait_for(waiting, 60)
    assert run.stalls == 0


async def test_boards_that_keep_reporting_do_not_hide_a_stall() -> None:
    """A fresh scan waits in the inbox all the time (the boards report every few milliseconds)
    and the controller takes each as it comes, never registering the act: a stall, reported
    once the timeout passes (before the fix the waiting scan counted as "behind" and the
    players waited for ever, every one of them idle)."""
    sensing, run = _sensing(), SimRun()
    inbox: asyncio.Queue[Any] = asyncio.Queue()
    taken = 0

    async def controller() -> None:  # takes every scan; the boards put the next one at once
        nonlocal taken
        await inbox.put(ChannelScan("seat3/0", frozenset(), time.monotonic()))
        while True:
            scan = await inbox.get()
            await inbox.put(ChannelScan("seat3/0", frozenset(), time.monotonic()))
            sensing.tracker.scan(scan)
            taken += 1
            await asyncio.sleep(0.001)

    boards = asyncio.create_task(controller())
    try:
        await asyncio.wait_for(wait_registered(
            inbox, sensing, EventCounter(), {UID: "rack:3"},
            SimOptions(register_timeout=0.3), run), 60)
    finally:
        boards.cancel()
    assert run.stalls == 1 and taken > 10  # the scans kept coming, and were taken
