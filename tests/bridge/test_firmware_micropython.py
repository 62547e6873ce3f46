"""The whole seat-board firmware (main.py and every fw_*.py) under the real MicroPython
interpreter: MicroPython's WebAssembly port from npm (tests/micropython/package.json, installed
by scripts/test), run by Node.js. Its fake hal (tests/micropython/hal.py) calls this test,
which answers with the fake MFRC522 chips on the virtual clock."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge import protocol as P
from firmware_bridge.fakes import FakeMFRC522, VirtualTag
from firmware_bridge.fakes.board_hal import FIRMWARE_DIR, FakeBoardHal

HERE = Path(__file__).resolve().parent.parent / "micropython"
PORT = HERE / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
NTAG = bytes.fromhex("04A219C15E2280")
OTHER = bytes.fromhex("04A219C1FFEEDD")
CROSS = bytes.fromhex("04C0FFEE123456")



@pytest.fixture(autouse=True)
def _the_port_is_installed() -> None:
    if shutil.which("node") is None or not PORT.exists():
        pytest.fail("no Node.js or no MicroPython WebAssembly port: run `bash scripts/test` "
                    "(or `npm ci` in tests/micropython)")


class Board:
    """The CPython end of the bridge: fake chips, a virtual clock, what the firmware did."""

    def __init__(self) -> None:
        self.chips = {ch: FakeMFRC522() for ch in range(4)}
        self.hal = FakeBoardHal("seat2", "E660583883172F2C", self.chips, groups=[[0, 2], [1, 3]])
        self.feeds: list[float] = []
        self.calls: list[str] = []
        self.fail_at_us = 120_000.0  # then a read of the USB link fails: the board must reset
        self.once: VirtualTag | None = None  # a tag taken off its coil once it has been read

    def answer(self, name: str, args: list[Any]) -> Any:
        self.calls.append(name)
        hal = self.hal
        if name == "xfer":
            out = self.chips[args[0]].transfer(args[1])
            if self.once is not None and self.once.answers and not self.chips[3].field_on:
                self.chips[3].take(self.once)  # read (selected), its field off: gone before
                self.once = None  # the next sweep
            return out
        if name == "feed":
            self.feeds.append(hal.clock.us)
            return None
        if name == "read":
            return {"raise": 5} if hal.clock.us > self.fail_at_us else list(hal.read())
        if name == "write":
            hal.write(bytes(args[0]))
            return None
        simple = {"channels": lambda: sorted(self.chips), "serial": hal.serial,
                  "board_name": hal.board_name, "ticks_us": hal.ticks_us,
                  "wait_us": lambda: hal.wait_us(args[0]), "groups": lambda: hal.groups}
        return simple[name]() if name in simple else None


def run(board: Board, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    for src in FIRMWARE_DIR.glob("*.py"):
        if src.name != "hal.py":  # the RP2040's hal: replaced by the bridge's fake
            shutil.copy(src, tmp_path / src.name)
    for name in ("hal.py", "machine.py", "entry.py"):
        shutil.copy(HERE / name, tmp_path / name)
    proc = subprocess.Popen(["node", str(HERE / "run_firmware.mjs"), str(tmp_path), "entry.py"],
                            cwd=HERE, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    for line in proc.stdout:
        if not line.startswith("\x01"):
            continue
        name, args = json.loads(line[1:])
        proc.stdin.write(json.dumps(board.answer(name, args)) + "\n")
        proc.stdin.flush()
    err = proc.stderr.read() if proc.stderr else ""
    return subprocess.CompletedProcess(proc.args, proc.wait(timeout=60), "", err)


def test_the_firmware_runs_under_micropython_reads_two_tags_in_one_field_and_resets(
        tmp_path: Path) -> None:
    board = Board()
    board.chips[1].place(VirtualTag(NTAG))
    board.chips[1].place(VirtualTag(OTHER))  # two tiles on one coil: the anticollision loop
    board.once = board.chips[3].place(VirtualTag(CROSS))  # read in one sweep only
    done = run(board, tmp_path)
    assert "MicroPython micropython" in done.stderr, done.stderr[-2000:]
    frames = [b.message for b in P.StreamDecoder().feed(bytes(board.hal.written))]
    hello = frames[0]
    assert hello.name == "hello" and hello["serial"] == "E660583883172F2C"
    assert hello["channels"] == 0b1111
    scans = [(m["channel"], m["present"], m["uid"]) for m in frames if m.name == "scan"]
    assert sorted(set(scans)) == sorted([(1, 1, OTHER), (1, 1, NTAG)])
    assert len(scans) == 2  # each once, at its second read in a row; CROSS, read once: never
    assert board.once is None  # CROSS was read (and taken off after it)
    assert all(c.early == c.jammed == c.rushed == 0 for c in board.chips.values())
    # the watchdog was started and fed at least every few milliseconds of the board's time
    assert board.calls.count("wdt") == 1 and len(board.feeds) > 20
    assert max(b - a for a, b in zip(board.feeds, board.feeds[1:], strict=False)) < 20_000
    # the injected failure ended in machine.reset(), not in the REPL
    assert board.calls[-1] == "reset" and "OSError" in done.stderr
