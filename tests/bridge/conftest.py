"""Fixtures for the bridge tests: a small, fast virtual table read through the serial back-end."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from firmware_bridge.serial_backend import SerialBackend
from firmware_bridge.sim import BoardSpec, VirtualTable
from firmware_bridge.types import BoardHealth, BridgeEvent, ChannelScan

LAYOUT = (
    BoardSpec("seat1", "T-SEAT1", (("rack:1", 4), ("melds:1", 2))),
    BoardSpec("centre", "T-CENTRE", (("discard", 1),)),
)


class Collector:
    """A sink that records every event and the latest UID set per channel."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.events: list[BridgeEvent] = []
        self.latest: dict[str, frozenset[str]] = {}
        self.scan_threads: set[str] = set()  # the threads the scans were posted on

    def __call__(self, event: BridgeEvent) -> None:
        with self.lock:
            self.events.append(event)
            if isinstance(event, ChannelScan):
                self.scan_threads.add(threading.current_thread().name)
                self.latest[event.channel] = event.uids

    def scans(self) -> list[ChannelScan]:
        with self.lock:
            return [e for e in self.events if isinstance(e, ChannelScan)]

    def health(self, state: str) -> list[BoardHealth]:
        with self.lock:
            return [e for e in self.events if isinstance(e, BoardHealth) and e.state == state]

    def wait(self, predicate: Callable[[], bool], timeout: float = 30.0) -> bool:
        """Whether ``predicate`` came true within ``timeout`` (generous: a busy host)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if predicate():
                return True
            time.sleep(0.005)
        return predicate()

    def sees(self, channel: str, uids: set[str]) -> Callable[[], bool]:
        return lambda: self.latest.get(channel) == frozenset(uids)


@pytest.fixture
def table() -> Iterator[VirtualTable]:
    vt = VirtualTable(LAYOUT, scan_ms=2, snapshot_ms=100, heartbeat_ms=40, seed=7)
    vt.start()
    yield vt
    vt.stop()


LOOP_THREAD = "the-game-loop"


@pytest.fixture(params=["threads", "loop"])
def reading(request: pytest.FixtureRequest) -> Iterator[asyncio.AbstractEventLoop | None]:
    """Where the serial links read: in threads of their own (None), or on an event loop
    (``read_on``) that runs on a thread of its own, as the service's game loop does."""
    if request.param == "threads":
        yield None
        return
    aio = asyncio.new_event_loop()
    thread = threading.Thread(target=aio.run_forever, name=LOOP_THREAD, daemon=True)
    thread.start()
    yield aio
    aio.call_soon_threadsafe(aio.stop)
    thread.join(5)
    aio.close()


@pytest.fixture
def link(table: VirtualTable, reading: asyncio.AbstractEventLoop | None,
         ) -> Iterator[tuple[SerialBackend, Collector]]:
    sink = Collector()
    # A heartbeat silence of 3 s and acknowledgements within 0.2 s (five tries): the virtual
    # boards run on the same, possibly busy, host (issue 22's CI under load)
    backend = SerialBackend(serials=table.serials, lookup=table.lookup, heartbeat_timeout=3.0,
                            ack_timeout=0.2, reconnect_s=0.05)
    backend.read_on(reading)
    backend.start(sink)
    assert sink.wait(lambda: len(sink.health("up")) >= 2), "boards never said hello"
    yield backend, sink
    backend.stop()
