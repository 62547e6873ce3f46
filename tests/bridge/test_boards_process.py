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


def test_boards_whose_process_was_held_up_say_so_on_its_error_output(
        capfd: pytest.CaptureFixture[str]) -> None:
    """Loaded run 25 (issue 22): every board of the virtual table went silent at once, the
    boards' process having had no CPU for seconds. A real board is a device of its own and
    never held up; a virtual one whose heartbeat goes out ``HELD_UP_S`` late or more says so
    on the process's error output (the service's log). Held up here as the host would: the
    process stopped (SIGSTOP) for 0.8 s."""
    table = BoardsProcess(scan_ms=20, snapshot_ms=250, seed=1)
    table.start()
    try:
        assert table._child is not None
        time.sleep(0.3)  # running, its heartbeats on time
        os.kill(table._child.pid, signal.SIGSTOP)
        time.sleep(0.8)
        os.kill(table._child.pid, signal.SIGCONT)
        end = time.monotonic() + 30
        said: list[str] = []
        while time.monotonic() < end and not all(
                any(f"virtual board {b}: " in line for line in said) for b in table.boards):
            time.sleep(0.1)
            said += [line for line in capfd.readouterr().err.splitlines() if "late" in line]
    finally:
        table.stop()
    for board in table.boards:
        late = [line for line in said if f"virtual board {board}: " in line]
        assert late, (board, said)
        seconds = float(late[0].split("went out ")[1].split(" s late")[0])
        assert seconds >= 0.6, late  # 0.8 s stopped, less at most one heartbeat's 0.1 s
        assert "WARNING firmware_bridge.sim_board" in late[0]


def test_a_board_held_up_counts_it_and_an_unplugged_one_is_not_late() -> None:
    """The board's own loop, in this process. Unplugged for 2 s, no heartbeat is due, so none
    is 2 s late when it is plugged in again; its lock held from outside for 0.6 s, its next
    heartbeat is that late (less its 0.1 s period)."""
    from firmware_bridge.sim import VirtualTable
    from firmware_bridge.sim_board import HELD_UP_S

    table = VirtualTable(scan_ms=20, snapshot_ms=250, seed=1)
    table.start()
    try:
        board = table.board("seat1")
        table.unplug("seat1")
        time.sleep(2.0)
        table.replug("seat1")
        time.sleep(0.3)
        assert not [s for s in board.held_up if s >= 1.5], board.held_up
        with board._lock:
            time.sleep(0.6)
        end = time.monotonic() + 10
        while time.monotonic() < end and not board.held_up:
            time.sleep(0.05)
    finally:
        table.stop()
    assert max(board.held_up) >= max(HELD_UP_S, 0.45), board.held_up
