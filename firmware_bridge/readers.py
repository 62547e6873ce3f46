"""Reader back-ends behind one small interface, chosen by name (gpiozero pin-factory style).

    backend = open_backend("serial", serials=["MJT-SEAT1"])   # or "sim", "mfrc522"
    backend.start(sink)            # sink(event) is called from reader threads
    ...
    backend.stop()

A back-end posts immutable ChannelScan / BoardHealth objects to the sink; with no sink they
queue up for `backend.get(timeout)`. Hardware modules are imported only by the chosen
back-end's module, so choosing "sim" or "serial" never touches RPi.GPIO or spidev.
"""

from __future__ import annotations

import asyncio
import importlib
import queue
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from typing import Any

from firmware_bridge.errors import BridgeConfigError
from firmware_bridge.types import BoardHealth, BridgeEvent, ChannelScan, Sink

# name -> "module:factory"; imported only when chosen.
BACKENDS: dict[str, str] = {
    "serial": "firmware_bridge.serial_backend:SerialBackend",
    "sim": "firmware_bridge.sim:SimBackend",
    "mfrc522": "firmware_bridge.mfrc522_backend:Mfrc522Backend",
}


class ReaderBackend:
    """Base of every back-end: sink plumbing, start/stop, counters."""

    name = "base"

    def __init__(self) -> None:
        self._sink: Sink | None = None
        self._queue: queue.Queue[BridgeEvent] = queue.Queue()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.event_loop: asyncio.AbstractEventLoop | None = None  # read_on()
        #: seconds stop() waits for each reader thread to end (a stuck one is left behind)
        self.join_s = 2.0

    # -- used by subclasses
    def post(self, event: BridgeEvent) -> None:
        """Deliver one immutable event upward (called from reader threads)."""
        sink = self._sink
        if sink is not None:
            sink(event)
        else:
            self._queue.put(event)

    def spawn(self, target: Callable[[], None], name: str) -> None:
        """Start a daemon reader thread that stop() will join."""
        thread = threading.Thread(target=target, name=name, daemon=True)
        self._threads.append(thread)
        thread.start()

    # -- the interface
    def read_on(self, loop: asyncio.AbstractEventLoop | None) -> None:
        """Before start(): read on ``loop`` (the event loop the events are for) instead of in
        threads of this back-end's own, where it can (the serial back-end: one hand-over
        between threads less per frame); a back-end that cannot reads in its threads anyway.
        Events still go to the sink."""
        self.event_loop = loop

    def start(self, sink: Sink | None = None) -> None:
        """Start reading; events go to sink (from reader threads) or to the internal queue."""
        self._sink = sink
        self._stop.clear()

    def stop(self) -> None:
        """Stop every reader thread and release the hardware."""
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=self.join_s)
        self._threads.clear()

    def get(self, timeout: float | None = None) -> BridgeEvent | None:
        """Next queued event (only when started without a sink); None on timeout."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def stats(self) -> dict[str, int]:
        """Counters (frames, bad_frames, resyncs, reconnects, ... as the back-end has them)."""
        return {}

    def __enter__(self) -> ReaderBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def open_backend(name: str, **config: Any) -> ReaderBackend:
    """Build the back-end called name with its keyword config; not yet started."""
    target = BACKENDS.get(name)
    if target is None:
        known = ", ".join(sorted(BACKENDS))
        raise BridgeConfigError(f"unknown reader back-end {name!r}: choose one of {known}")
    module_name, factory = target.split(":")
    cls = getattr(importlib.import_module(module_name), factory)
    backend: ReaderBackend = cls(**config)
    return backend


def asyncio_sink(loop: asyncio.AbstractEventLoop, q: asyncio.Queue[BridgeEvent]) -> Sink:
    """A sink that hands each event to an asyncio queue owned by loop (thread-safe), in the
    order posted.

    A board's snapshot posts every channel's set at once (some 35 events): the loop's thread
    is woken once for a burst, not once per event (each wake-up is a write to the loop's
    self-pipe and a hand-over of the interpreter lock), and takes all that came meanwhile.
    An event posted on the loop's own thread (a back-end that reads on it, ``read_on``) goes
    into the queue at once, unless events from other threads still wait (order is kept).
    """
    waiting: deque[BridgeEvent] = deque()
    lock = threading.Lock()
    scheduled = False

    def drain() -> None:
        nonlocal scheduled
        with lock:  # first: whatever is posted from now on is taken by a drain still to come
            scheduled = False
        while waiting:
            q.put_nowait(waiting.popleft())

    def sink(event: BridgeEvent) -> None:
        nonlocal scheduled
        if not waiting and running_loop() is loop:  # posted on the loop itself: no wake-up
            q.put_nowait(event)
            return
        waiting.append(event)
        with lock:
            if scheduled:
                return
            scheduled = True
        loop.call_soon_threadsafe(drain)

    return sink


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running on this thread, if any."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class _Coalesced:
    """Waiting events in arrival order; a newer full set of a channel replaces the waiting one
    (and takes its place at the end), as does a board's repeated health state."""

    def __init__(self) -> None:
        self.items: OrderedDict[Hashable, BridgeEvent] = OrderedDict()
        self.replaced = 0
        self._presses = 0

    def add(self, event: BridgeEvent) -> None:
        key: Hashable
        if isinstance(event, ChannelScan):
            key = ("scan", event.channel)
        elif isinstance(event, BoardHealth):
            key = ("health", event.board, event.state)
        else:  # a button press is a person's act: never dropped
            self._presses += 1
            key = ("press", self._presses)
        if self.items.pop(key, None) is not None:
            self.replaced += 1
        self.items[key] = event

    def pop(self) -> BridgeEvent:
        return self.items.popitem(last=False)[1]

    def __len__(self) -> int:
        return len(self.items)


class LatestScans(asyncio.Queue):  # type: ignore[type-arg]
    """An asyncio queue for bridge events that cannot grow with a loop that falls behind: a
    channel's scan is its full set, so only the newest waiting one per channel is kept (and
    one per board and health state). At most one entry per channel and board state, plus
    button presses, whatever the load; ``replaced`` counts the scans it made unnecessary."""

    _queue: _Coalesced

    def _init(self, maxsize: int) -> None:
        self._queue = _Coalesced()

    def _put(self, item: BridgeEvent) -> None:
        self._queue.add(item)

    def _get(self) -> BridgeEvent:
        return self._queue.pop()

    @property
    def replaced(self) -> int:
        return self._queue.replaced

    def waiting(self) -> frozenset[str]:
        """What has spoken but waits here, not yet taken: the channels with a scan, and the
        boards with a resync report (their channels' scans wait for the snapshot). A presence
        tracker's ``tick`` calls none of these silent."""
        return frozenset(e.channel if isinstance(e, ChannelScan) else e.board
                         for e in self._queue.items.values()
                         if isinstance(e, ChannelScan)
                         or isinstance(e, BoardHealth) and e.state == "resync")
