"""The bridge's inbox for the loop that owns the game: bounded by the channels, newest wins."""

from __future__ import annotations

import asyncio

from firmware_bridge.readers import LatestScans, asyncio_sink
from firmware_bridge.types import BoardHealth, ButtonPress, ChannelScan


def test_a_loop_that_falls_behind_gets_the_newest_set_of_each_channel() -> None:
    async def main() -> tuple[list[object], int, int]:
        inbox = LatestScans()
        sink = asyncio_sink(asyncio.get_running_loop(), inbox)
        for t in range(1000):  # the reader threads post while the loop does not read
            for ch in range(5):
                sink(ChannelScan(f"seat1/{ch}", frozenset({f"04:00:00:{t % 256:02X}"}),
                                 float(t)))
            if t % 100 == 0:
                sink(BoardHealth("seat1", "resync", float(t)))
        sink(ButtonPress(1, "call", 999.0))
        sink(ButtonPress(1, "call", 999.5))
        await asyncio.sleep(0.05)  # the call_soon_threadsafe callbacks run
        size = inbox.qsize()
        got = [inbox.get_nowait() for _ in range(size)]
        return got, size, inbox.replaced

    got, size, replaced = asyncio.run(main())
    scans = [e for e in got if isinstance(e, ChannelScan)]
    assert size == 5 + 1 + 2  # one per channel, one per board state, every press
    assert [s.t for s in scans] == [999.0] * 5  # only the newest of each channel
    assert sum(isinstance(e, ButtonPress) for e in got) == 2
    assert replaced == 5 * 999 + 9
