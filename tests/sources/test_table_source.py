"""The table source end to end: virtual boards on ptys -> serial back-end -> tracker -> loop."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import Any

import pytest

from controller.app import build
from controller.config import default_config
from controller.loop import GameLoop
from controller.sources.backends import channel_map
from controller.sources.table import bridge_events, table_source
from controller.store import EventLog
from controller.table import PresenceTracker, TileRegistry
from firmware_bridge.sim import SimBackend
from firmware_bridge.types import BoardHealth, ChannelScan
from tests.waiting import until_async

TILES = {"04:00:00:00:00:00:01": "5b", "04:00:00:00:00:00:02": "ew"}
A, B = TILES


def _logged(data_dir: Path) -> list[dict[str, Any]]:
    with EventLog.open(data_dir / "events.sqlite", readonly=True) as log:
        return [r.event for r in log.records(log.session().id)]


async def test_tiles_on_the_virtual_table_become_moves_in_the_log(tmp_path: Path) -> None:
    registry = TileRegistry.open(tmp_path, 136)
    registry.add_all(TILES.items())
    service = GameLoop(default_config(), data_dir=tmp_path)
    backend = SimBackend(seed=1)
    tracker = PresenceTracker(channel_map(default_config()), registry, absent_after=0.5)
    service.add_source("table", table_source(lambda: backend, tracker, tick_every=0.05))
    await service.start()
    try:
        await until_async(lambda: bool(backend.table.serials), 8.0)
        backend.table.place(A, "seat1/3")
        backend.table.place("04:BA:D0:00", "seat2/0")  # a ghost: not enrolled
        await until_async(lambda: any("move" in e for e in _logged(tmp_path)), 8.0)
        backend.table.remove(A)
        backend.table.place(A, "centre/0")
        await until_async(lambda: len([e for e in _logged(tmp_path) if "move" in e]) == 2, 8.0)
    finally:
        await service.stop()
    events = _logged(tmp_path)
    moves = [(e["move"]["tile"], e["move"]["from"], e["move"]["to"]) for e in events
             if "move" in e]
    assert moves == [("5b", "wall", "rack:1"), ("5b", "rack:1", "discard")]
    ghosts = [e["anomaly"] for e in events if e.get("anomaly", {}).get("kind") == "unknown_uid"]
    assert ghosts and ghosts[0]["uid"] == "04:BA:D0:00" and ghosts[0]["zone"] == "rack:2"


async def _run(tmp_path: Path, registry: TileRegistry, placed: list[tuple[str, str]],
               moves_wanted: int) -> None:
    """One life of the service: lay tiles on a fresh virtual table, wait for the moves."""
    service = GameLoop(default_config(), data_dir=tmp_path)
    backend = SimBackend(seed=2)
    tracker = PresenceTracker(channel_map(default_config()), registry, absent_after=0.5)
    service.add_source("table", table_source(lambda: backend, tracker, tick_every=0.05))
    await service.start()
    try:
        await until_async(lambda: bool(backend.table.serials), 8.0)
        for uid, channel in placed:
            backend.table.place(uid, channel)
            await asyncio.sleep(0.3)
        await until_async(
            lambda: len([e for e in _logged(tmp_path) if "move" in e]) >= moves_wanted, 8.0)
    finally:
        await service.stop()


async def test_after_a_restart_the_tiles_already_out_make_no_moves(tmp_path: Path) -> None:
    registry = TileRegistry.open(tmp_path, 136)
    registry.add_all(TILES.items())
    await _run(tmp_path, registry, [(A, "seat1/3")], 1)
    await _run(tmp_path, registry, [(A, "seat1/3"), (B, "seat1/4")], 2)
    moves = [(e["move"]["tile"], e["move"]["from"], e["move"]["to"])
             for e in _logged(tmp_path) if "move" in e]
    assert moves == [("5b", "wall", "rack:1"), ("ew", "wall", "rack:1")]


def test_the_root_plugs_the_readers_as_the_table_source(tmp_path: Path) -> None:
    config = default_config()  # the sim back-end, no channels: the virtual table's own map
    loop = build(config, tmp_path, table="readers").loop
    assert loop.source_names() == ["table"]
    assert (tmp_path / "registry.sqlite").exists()


def test_simulate_plugs_the_virtual_table_without_a_registry(tmp_path: Path) -> None:
    config = default_config()  # the virtual table brings its own tagged set
    loop = build(config, tmp_path, table="virtual").loop
    assert loop.source_names() == ["table"]
    assert not (tmp_path / "registry.sqlite").exists()


def test_no_table_source_for_a_back_end_without_channels(tmp_path: Path) -> None:
    config = default_config()
    serial = config.model_copy(update={"readers": config.readers.model_copy(
        update={"backend": "serial"})})
    assert build(serial, tmp_path, table="readers").loop.source_names() == []


def test_the_tracker_counts_two_reads_only_where_the_host_sweeps(tmp_path: Path) -> None:
    """Boards (serial, and the virtual boards of sim) report a tag only at its second read in
    a row (hardware_docs/protocol.md): their scans are confirmed. The Pi's direct SPI back-end
    reports every sweep's reads: the tracker counts two (issue 28)."""
    config = default_config()
    expected = {"serial": 1, "sim": 1, "mfrc522": 2}
    for backend, reads in expected.items():
        readers = config.readers.model_copy(update={"backend": backend})
        system = build(config.model_copy(update={"readers": readers}), tmp_path / backend)
        assert system.tracker({}).confirm_reads == reads, backend


async def test_a_loop_held_up_makes_no_reader_look_silent(tmp_path: Path) -> None:
    """The event loop held up longer than ``silent_after`` (a loaded host): silence is judged
    on the readers' own clock, the newest scan's time, so the scans that waited meanwhile make
    no reader look silent (presence.py, ``tick``). Fails when ``tick`` judges by the host's
    clock. The tracker ticks every millisecond here, so that a tick falls inside the burst of
    scans that waited (as one did on loaded runs 15, 18 and 19, where the loop took the burst
    slowly): the channels whose scans are still queued, and a board whose frames showed a gap
    and is resynchronising, are not silent either (fails when the source does not tell
    ``tick`` what waits, or ignores a resync). The tracker's internals are read only to wait
    for the readers' first scans and for scans after the hold-up."""
    registry = TileRegistry.open(tmp_path, 136)
    service = GameLoop(default_config(), data_dir=tmp_path)
    backend = SimBackend(seed=3)
    tracker = PresenceTracker(channel_map(default_config()), registry, silent_after=2.0)
    service.add_source("table", table_source(lambda: backend, tracker, tick_every=0.001))
    channels = set(channel_map(default_config()))
    await service.start()
    try:
        await until_async(lambda: bool(backend.table.serials), 8.0)
        # every channel has been read (the boards' snapshots), so none is silent from the start
        await until_async(
            lambda: all(tracker._channels[c].last_scan is not None for c in channels), 60.0)
        time.sleep(3.0)  # the loop held up: the boards (threads) go on writing their frames
        # the scans that waited are taken, then the readers go on: a few snapshots more
        newest = tracker._latest
        await until_async(lambda: tracker._latest is not None and newest is not None
                     and tracker._latest > newest + 1.0, 60.0)
    finally:
        await service.stop()
    silent = [e["anomaly"]["channel"] for e in _logged(tmp_path)
              if e.get("anomaly", {}).get("kind") == "reader_silent"]
    assert silent == []


def test_a_boards_resync_report_gives_its_channels_time_for_the_snapshot(tmp_path: Path) -> None:
    """The bridge's "resync" report of a board reaches the tracker (``bridge_events``): its
    channels, whose scans now wait for the board's snapshot, are not silent before
    ``silent_after`` from it; another board's channels are judged as before."""
    service = GameLoop(default_config(), data_dir=tmp_path)
    channels = channel_map(default_config())
    tracker = PresenceTracker(channels, TileRegistry.open(tmp_path, 136), silent_after=2.0)
    for name in channels:
        bridge_events(ChannelScan(name, frozenset(), 0.0), tracker, service)
    assert bridge_events(BoardHealth("seat1", "resync", 1.5), tracker, service) == []
    assert service.status().readers["seat1"]["state"] == "resync"
    for at in (0.5, 1.0, 1.5, 2.0, 2.5, 3.0):  # the other boards scan on; seat1's wait
        for name in channels:
            if not name.startswith("seat1/"):
                bridge_events(ChannelScan(name, frozenset(), at), tracker, service)
    assert tracker.tick(3.0) == []
    assert tracker.tick(3.4) == []  # its clock is the newest scan's: 3.0
    bridge_events(ChannelScan("seat2/0", frozenset(), 3.6), tracker, service)
    silent = {e["anomaly"]["channel"] for e in tracker.tick(3.6)}
    assert silent == {name for name in channels if name.startswith("seat1/")}


async def test_a_board_down_and_up_again_is_in_the_service_log(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A board that goes down (its cable pulled) and comes back is a line each in the
    service's log, the operator's journal: the reason at warning, the return at info; a
    state reported again is not repeated."""
    service = GameLoop(default_config(), data_dir=tmp_path)
    backend = SimBackend(seed=3)
    tracker = PresenceTracker(channel_map(default_config()), TileRegistry.open(tmp_path, 136))
    service.add_source("table", table_source(lambda: backend, tracker, tick_every=0.05))
    caplog.set_level(logging.INFO, logger="controller.service")

    def lines(board: str) -> list[tuple[int, str]]:
        return [(r.levelno, r.getMessage()) for r in caplog.records
                if r.getMessage().startswith(f"{board}: ")]

    await service.start()
    try:
        await until_async(lambda: service.status().readers.get("seat2", {}).get("ok"), 60)
        assert lines("seat2") == []  # a board coming up at the start is not news
        backend.table.unplug("seat2")
        await until_async(lambda: lines("seat2"), 60)
        service.report_health("seat2", {"ok": False, "state": "down", "message": "again"})
        backend.table.replug("seat2")
        await until_async(lambda: len(lines("seat2")) >= 2, 60)
    finally:
        await service.stop()
    (down_level, down), (up_level, up) = lines("seat2")[:2]
    assert down_level == logging.WARNING and down.startswith("seat2: down (")
    assert up_level == logging.INFO and up.startswith("seat2: up (")
    assert not any("again" in line or "resync" in line for _, line in lines("seat2"))
