"""The virtual boards in a process of their own (firmware_bridge.sim_process), read through the
real serial back-end on the pseudo-terminals that process opened, as real boards are devices."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from firmware_bridge.sim import SimBackend
from firmware_bridge.sim_process import BoardsProcess, BoardsProcessError
from firmware_bridge.types import ChannelScan

UID = "04:A2:19:C1:5E:22:80"


def _scan_of(backend: SimBackend, channel: str, uids: frozenset[str],
             timeout: float = 5.0) -> ChannelScan:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        event = backend.get(timeout=0.1)
        if isinstance(event, ChannelScan) and event.channel == channel and event.uids == uids:
            return event
    pytest.fail(f"no scan of {channel} with {set(uids)} within {timeout} s")


def test_a_tile_placed_moved_and_removed_is_read_from_the_other_process() -> None:
    table = BoardsProcess(scan_ms=2, snapshot_ms=100, seed=1)
    backend = SimBackend(table=table)
    backend.start()
    try:
        assert table._child is not None and table._child.pid != os.getpid()
        ports = {s: table.lookup(s) for s in table.serials}
        assert all(p and p.startswith("/dev/pts/") for p in ports.values()), ports
        table.place(UID, "seat2/4")
        _scan_of(backend, "seat2/4", frozenset({UID}))
        table.place(UID, "centre/0")  # moved: it leaves the rack and lies on the pad
        _scan_of(backend, "seat2/4", frozenset())
        _scan_of(backend, "centre/0", frozenset({UID}))
        table.remove(UID)
        _scan_of(backend, "centre/0", frozenset())
        with pytest.raises(ValueError, match="no channel"):  # refused here: a wrong call
            table.place(UID, "seat9/0")  # never reaches (and stops) the boards
        with pytest.raises(ValueError, match="no virtual board"):
            table.unplug("seat9")
        with pytest.raises(ValueError):
            table.place("not a uid", "seat1/0")
        with pytest.raises(ValueError, match="unknown fault"):
            table.set_faults("seat1", bit_eror_rate=0.1)
        table.set_faults("seat1", bit_error_rate=0.0)
        table.place(UID, "seat1/0")
        _scan_of(backend, "seat1/0", frozenset({UID}))  # the boards still run
    finally:
        backend.stop()
    assert table._child is None


def test_an_unplugged_board_comes_back_on_a_new_pty() -> None:
    table = BoardsProcess(scan_ms=2, snapshot_ms=100, seed=2)
    backend = SimBackend(table=table)
    backend.start()
    try:
        assert table.lookup("MJT-SEAT3")
        table.unplug("seat3")
        assert table.lookup("MJT-SEAT3") is None
        new = table.replug("seat3")
        assert new and table.lookup("MJT-SEAT3") == new  # a fresh pty (its number may come again)
        table.place(UID, "seat3/1")
        _scan_of(backend, "seat3/1", frozenset({UID}))  # the link found it again
    finally:
        backend.stop()


def test_the_boards_process_ends_with_its_host() -> None:
    """A host killed outright (no stop()) leaves no boards running: the child reads its end
    of the pipe, and the pipe closes with the host."""
    host = subprocess.Popen(
        [sys.executable, "-c",
         "from firmware_bridge.sim_process import BoardsProcess\n"
         "t = BoardsProcess(); t.start(); print(t._child.pid, flush=True)\n"
         "import time; time.sleep(60)"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert host.stdout is not None
        child = int(host.stdout.readline())
        os.kill(host.pid, signal.SIGKILL)
        host.wait(timeout=10)
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                os.kill(child, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)
        os.kill(child, signal.SIGKILL)
        pytest.fail("the boards' process outlived its host")
    finally:
        if host.poll() is None:
            host.kill()


def test_a_call_to_a_stopped_boards_process_says_so() -> None:
    table = BoardsProcess()
    with pytest.raises(BoardsProcessError, match="not running"):
        table.place(UID, "seat1/0")
    table.start()
    assert table._child is not None
    table._child.kill()
    table._child.wait()
    with pytest.raises(BoardsProcessError, match="stopped"):
        for _ in range(100):  # the pipe's buffer may take a few lines first
            table.place(UID, "seat1/0")
    table.stop()


def test_a_ctrl_c_at_the_terminal_leaves_the_boards_to_their_host() -> None:
    """SIGINT reaches the whole process group: the boards keep running until the host closes
    the pipe, and then end quietly."""
    table = BoardsProcess(scan_ms=2, snapshot_ms=100)
    backend = SimBackend(table=table)
    backend.start()
    try:
        assert table._child is not None  # started: it has answered, its handler is set
        os.kill(table._child.pid, signal.SIGINT)
        # a tile placed after the signal is read: the boards went on past it (and a SIGINT
        # that ended them would have done so before they read it), not a fixed sleep
        table.place(UID, "seat1/2")
        _scan_of(backend, "seat1/2", frozenset({UID}))
        assert table._child.poll() is None
        child = table._child
    finally:
        backend.stop()
    assert child.returncode == 0
