"""The virtual table with the real physics, end to end: virtual boards -> real pseudo-terminals
-> the serial back-end -> the host's presence tracker, set as the service sets it for boards
(``confirm_reads`` 1: the boards count the two agreeing reads). Two tiles laid on the discard
pad at once are both read (anticollision) and both become moves; a single cross-read of a rack
tile by a neighbouring coil moves nothing (two agreeing reads, on the board), not even when a
snapshot or another tag's arrival on that coil follows it while a board would still hold it;
the same coil reading a tile in sweeps in a row does take it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from controller.sources.backends import BOARD_CONFIRMED
from controller.table import PresenceTracker
from firmware_bridge.serial_backend import SerialBackend
from firmware_bridge.sim import VirtualTable
from firmware_bridge.types import BridgeEvent, ChannelScan

from .conftest import LAYOUT, Collector

A = "04:A2:19:C1:5E:22:80"
C = "04:11:22:33:44:55:66"
D = "04:77:66:55:44:33:22"
REGISTRY = {A: "5b", C: "ew", D: "4c"}  # tile codes as in the rule book (RULES.md)


class Tracking(Collector):
    """Every scan also goes through the host's PresenceTracker (and lets its time pass, as the
    service's loop does); its moves are kept. The tracker is set as the service sets it for
    the serial back-end (controller.sources.backends.confirm_reads)."""

    def __init__(self, channels: dict[str, str]) -> None:
        super().__init__()
        self.tracker = PresenceTracker(channels, REGISTRY,
                                       confirm_reads=1 if "serial" in BOARD_CONFIRMED else 2)
        self.moves: list[dict[str, Any]] = []

    def __call__(self, event: BridgeEvent) -> None:
        super().__call__(event)
        if isinstance(event, ChannelScan):
            with self.lock:
                events = self.tracker.scan(event) + self.tracker.tick(event.t)
                self.moves += [e["move"] for e in events if "move" in e]

    def moved(self, uid: str, frm: str, to: str) -> bool:
        with self.lock:
            return any(m["uid"] == uid and m["from"] == frm and m["to"] == to
                       for m in self.moves)

    def reads(self, channel: str, uid: str) -> list[bool]:
        """Per scan of ``channel`` the host received: whether it held ``uid``."""
        return [uid in s.uids for s in self.scans() if s.channel == channel]


@contextmanager
def tracking(table: VirtualTable) -> Iterator[Tracking]:
    """The table's boards read by the serial back-end into a Tracking sink."""
    sink = Tracking(table.labels())
    backend = SerialBackend(serials=table.serials, lookup=table.lookup, heartbeat_timeout=3.0,
                            ack_timeout=0.2, reconnect_s=0.05)
    backend.start(sink)
    try:
        assert sink.wait(lambda: len(sink.health("up")) >= 2), "boards never said hello"
        yield sink
    finally:
        backend.stop()


@pytest.fixture
def tracked(table: VirtualTable) -> Iterator[Tracking]:
    with tracking(table) as sink:
        yield sink


def test_two_tiles_laid_on_the_pad_at_once_both_become_moves(table: VirtualTable,
                                                             tracked: Tracking) -> None:
    table.place_together([A, C], "centre/0")
    assert tracked.wait(lambda: tracked.moved(A, "wall", "discard")
                        and tracked.moved(C, "wall", "discard"))
    assert tracked.wait(tracked.sees("centre/0", {A, C}))


@pytest.fixture
def table() -> Iterator[VirtualTable]:
    """The bridge tests' small table, its snapshots 20 s apart: the host hears of the tiles by
    the boards' scan events alone."""
    vt = VirtualTable(LAYOUT, scan_ms=2, snapshot_ms=20000, heartbeat_ms=40, seed=7)
    vt.start()
    yield vt
    vt.stop()


def cross_read_once(table: VirtualTable, tracked: Tracking) -> None:
    """A on the rack, taken as there; lifted off the table and, as it is carried away, read
    once by the meld strip's coil (seat1/4). Returns when that sweep is over."""
    table.place(A, "seat1/0")
    assert tracked.wait(lambda: tracked.moved(A, "wall", "rack:1"))
    board = table.board("seat1")
    table.remove(A)
    table.cross_read(A, "seat1/4")
    swept = board.sweeps
    assert tracked.wait(lambda: board.cross_reads_left() == 0 and board.sweeps > swept + 1)


def settled(table: VirtualTable, tracked: Tracking, scans_of_melds: int = 3) -> None:
    """Wait until the rack has reported A gone and the meld strip's channel has been scanned
    ``scans_of_melds`` more times since (the snapshots or events that would repeat it)."""
    assert tracked.wait(lambda: tracked.reads("seat1/0", A)[-1:] == [False])
    seen = len(tracked.reads("seat1/4", A))
    assert tracked.wait(lambda: len(tracked.reads("seat1/4", A)) >= seen + scans_of_melds)


def test_a_single_cross_read_moves_nothing(table: VirtualTable, tracked: Tracking) -> None:
    """The meld strip does not take a tile its coil read once (with one agreeing read enough,
    it would): the board never reports it."""
    cross_read_once(table, tracked)
    table.place(C, "seat1/1")  # a scan of the meld strip's board after it (an event)
    assert tracked.wait(lambda: tracked.moved(C, "wall", "rack:1"))
    assert tracked.wait(lambda: tracked.reads("seat1/0", A)[-1:] == [False])
    assert not tracked.moved(A, "rack:1", "melds:1"), tracked.moves
    assert True not in tracked.reads("seat1/4", A)  # never reported


@pytest.fixture
def holding() -> Iterator[VirtualTable]:
    """Boards whose debounce outlasts a snapshot (60 sweeps, against snapshots every 20 ms): a
    board that reported a single read would repeat it in its snapshots and in every scan event
    of that channel until its absence is reported (the bug found in hardware_docs/timing.md,
    "The virtual table")."""
    vt = VirtualTable(LAYOUT, scan_ms=2, snapshot_ms=20, heartbeat_ms=40, debounce_scans=60,
                      seed=7)
    vt.start()
    yield vt
    vt.stop()


@pytest.fixture
def holding_quiet() -> Iterator[VirtualTable]:
    """The same long debounce, snapshots 20 s apart: only scan events reach the host."""
    vt = VirtualTable(LAYOUT, scan_ms=2, snapshot_ms=20000, heartbeat_ms=40, debounce_scans=60,
                      seed=7)
    vt.start()
    yield vt
    vt.stop()


def test_a_single_cross_read_that_snapshots_would_repeat_moves_nothing(holding: VirtualTable,
                                                                      ) -> None:
    with tracking(holding) as tracked:
        cross_read_once(holding, tracked)
        settled(holding, tracked, scans_of_melds=5)  # five snapshots at least
        assert not tracked.moved(A, "rack:1", "melds:1"), tracked.moves
        assert True not in tracked.reads("seat1/4", A)  # in no snapshot


def test_another_tag_arriving_on_the_coil_does_not_confirm_a_cross_read(
        holding_quiet: VirtualTable) -> None:
    """D laid on the meld strip's coil right after that coil read A once: D's arrival is a
    scan of the channel, which must not list A (a board holding A would, and the host would
    count it as A's second read)."""
    with tracking(holding_quiet) as tracked:
        cross_read_once(holding_quiet, tracked)
        holding_quiet.place(D, "seat1/4")
        assert tracked.wait(lambda: tracked.moved(D, "wall", "melds:1"))
        settled(holding_quiet, tracked, scans_of_melds=0)
        assert not tracked.moved(A, "rack:1", "melds:1"), tracked.moves
        assert all(A not in s.uids for s in tracked.scans() if s.channel == "seat1/4")


def test_a_tile_read_in_sweeps_in_a_row_is_taken(table: VirtualTable,
                                                 tracked: Tracking) -> None:
    """The same injection held for three sweeps: the board reports it at its second read and
    the meld strip takes the tile, so the single cross-read above is no move for the right
    reason."""
    table.cross_read(D, "seat1/4", sweeps=3)
    assert tracked.wait(lambda: tracked.moved(D, "wall", "melds:1"))
    assert tracked.reads("seat1/4", D).count(True) == 1  # one event: the second read's


def test_random_cross_reads_at_a_rate_reach_the_neighbours_only() -> None:
    """The ``cross_read_rate`` fault: a tag is read by channel n - 1 or n + 1 of its board."""
    from firmware_bridge.sim import BoardSpec

    layout = (BoardSpec("seat1", "T-SEAT1", (("rack:1", 6),)),)
    with VirtualTable(layout, scan_ms=2, seed=3) as vt:
        sink = Collector()
        backend = SerialBackend(serials=vt.serials, lookup=vt.lookup, heartbeat_timeout=3.0,
                                ack_timeout=0.2, reconnect_s=0.05)
        backend.start(sink)
        try:
            vt.place(A, "seat1/2")
            vt.set_faults("seat1", cross_read_rate=0.5)
            assert sink.wait(lambda: {s.channel for s in sink.scans() if A in s.uids}
                             >= {"seat1/1", "seat1/3"})
            vt.set_faults("seat1", cross_read_rate=0.0)
            where = {s.channel for s in sink.scans() if A in s.uids}
            assert where == {"seat1/1", "seat1/2", "seat1/3"}
        finally:
            backend.stop()
