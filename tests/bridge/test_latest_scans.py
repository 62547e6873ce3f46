"""The bridge's inbox for the loop that owns the game: bounded by the channels, newest wins."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

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


def test_the_inbox_names_the_channels_and_resyncing_boards_that_wait_in_it() -> None:
    inbox = LatestScans()
    assert inbox.waiting() == frozenset()
    inbox.put_nowait(ChannelScan("seat1/0", frozenset(), 1.0))
    inbox.put_nowait(BoardHealth("seat2", "resync", 1.0))
    inbox.put_nowait(BoardHealth("seat4", "down", 1.0))  # not talking: not waiting
    inbox.put_nowait(ButtonPress(1, "call", 1.0))
    inbox.put_nowait(ChannelScan("seat3/m", frozenset(), 1.0))
    inbox.put_nowait(ChannelScan("seat1/0", frozenset(), 2.0))
    assert inbox.waiting() == {"seat1/0", "seat2", "seat3/m"}
    taken = inbox.get_nowait()
    assert isinstance(taken, BoardHealth)  # seat1/0's newer scan took the older one's place
    assert inbox.waiting() == {"seat1/0", "seat3/m"}
    for _ in range(3):
        inbox.get_nowait()
    assert inbox.waiting() == {"seat1/0"}


class _Wakeups:
    """Counts the loop's wake-ups from other threads (its real ``call_soon_threadsafe``)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.count = 0
        self._real = loop.call_soon_threadsafe
        loop.call_soon_threadsafe = self._counted  # type: ignore[method-assign]

    def _counted(self, *args: Any) -> Any:
        self.count += 1
        return self._real(*args)


def test_events_from_several_reader_threads_arrive_all_in_each_threads_order() -> None:
    """The sink wakes the loop once per burst: whatever the interleaving of the reader threads
    and the loop, nothing is lost or reordered, and a burst is one wake-up, not one per event."""
    threads, per_thread = 5, 400

    async def main() -> tuple[list[ChannelScan], int]:
        loop = asyncio.get_running_loop()
        wakeups = _Wakeups(loop)
        inbox: asyncio.Queue[ChannelScan] = asyncio.Queue()  # keeps every event
        sink = asyncio_sink(loop, inbox)

        def reader(n: int) -> None:
            for i in range(per_thread):
                sink(ChannelScan(f"seat{n}/0", frozenset(), float(i)))
                if i % 50 == 0:
                    time.sleep(0.001)  # let the loop drain part-way through

        workers = [threading.Thread(target=reader, args=(n,)) for n in range(threads)]
        for w in workers:
            w.start()
        got: list[ChannelScan] = []
        while len(got) < threads * per_thread:
            got.append(await asyncio.wait_for(inbox.get(), timeout=10))
        for w in workers:
            w.join()
        await asyncio.sleep(0.01)
        assert inbox.empty()
        return got, wakeups.count

    got, wakeups = asyncio.run(main())
    for n in range(5):
        assert [s.t for s in got if s.channel == f"seat{n}/0"] == [float(i) for i in
                                                                    range(per_thread)]
    assert wakeups < threads * per_thread / 2  # bursts share a wake-up


def test_a_burst_posted_while_the_loop_is_busy_is_one_wake_up() -> None:
    async def main() -> tuple[int, list[float]]:
        loop = asyncio.get_running_loop()
        wakeups = _Wakeups(loop)
        inbox: asyncio.Queue[ChannelScan] = asyncio.Queue()
        sink = asyncio_sink(loop, inbox)

        def post(scans: list[ChannelScan]) -> None:  # a reader thread; the loop waits (busy)
            worker = threading.Thread(target=lambda: [sink(scan) for scan in scans])
            worker.start()
            worker.join()

        # a snapshot's channels, posted before the loop gets a turn
        post([ChannelScan(f"seat1/{ch}", frozenset(), float(ch)) for ch in range(35)])
        await asyncio.sleep(0.01)
        first = wakeups.count
        post([ChannelScan("seat1/0", frozenset(), 99.0)])  # the next one after the drain
        await asyncio.sleep(0.01)
        return first * 10 + (wakeups.count - first), [inbox.get_nowait().t for _ in range(36)]

    wakeups, order = asyncio.run(main())
    assert wakeups == 11  # one for the burst, one for the later event
    assert order == [float(ch) for ch in range(35)] + [99.0]


def test_a_scan_posted_on_the_loops_own_thread_is_queued_at_once_and_in_order() -> None:
    # A back-end that reads on the loop (read_on) posts there: no wake-up is needed, unless
    # scans from other threads still wait to be drained; then it queues behind them.
    async def main() -> tuple[list[float], int, list[float], int]:
        loop = asyncio.get_running_loop()
        wakeups = _Wakeups(loop)
        inbox: asyncio.Queue[ChannelScan] = asyncio.Queue()
        sink = asyncio_sink(loop, inbox)
        sink(ChannelScan("seat1/0", frozenset(), 1.0))
        at_once = [inbox.get_nowait().t]  # no turn of the loop needed
        worker = threading.Thread(target=sink, args=(ChannelScan("seat2/0", frozenset(), 2.0),))
        worker.start()
        worker.join()  # posted from a thread, not yet drained
        sink(ChannelScan("seat1/0", frozenset(), 3.0))  # on the loop: behind the waiting one
        before = inbox.qsize()
        await asyncio.sleep(0.01)
        return at_once, before, [inbox.get_nowait().t for _ in range(2)], wakeups.count

    at_once, before, order, wakeups = asyncio.run(main())
    assert at_once == [1.0]
    assert before == 0 and order == [2.0, 3.0]
    assert wakeups == 1  # the other thread's scan only
