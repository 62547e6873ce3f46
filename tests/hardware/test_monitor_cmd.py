"""`mahjong-table monitor`: live scans -> presence tracker -> moves, on the virtual table and on
mfrc522 chips over the fakes, with a seat button pressed on the fake GPIO."""

from __future__ import annotations

import io
import json
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main, monitor_cmd
from controller.sources.world import TileBox
from controller.table import TileRegistry
from firmware_bridge.fakes import FakeHardware, FakeMFRC522, VirtualTag
from tests.hardware.helpers import SEAT1, TILES, mfrc522_toml

ROOT = Path(__file__).resolve().parents[2]


class Out(io.StringIO):
    """The monitor's stdout, watched line by line as it is written."""

    def __init__(self) -> None:
        super().__init__()
        self.cond = threading.Condition()

    def write(self, text: str) -> int:
        with self.cond:
            n = super().write(text)
            self.cond.notify_all()
            return n

    def lines(self) -> list[Any]:
        with self.cond:
            return [json.loads(line) for line in self.getvalue().split("\n")[:-1]]

    def wait(self, done: Callable[[list[Any]], bool], timeout: float = 60.0) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: done(self.lines()), timeout)


Step = tuple[Callable[[list[Any]], bool], Callable[[], None]]


def monitor_until(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                  args: list[str], steps: list[Step]) -> tuple[int, list[Any], str]:
    """Run `monitor --json` until its output has passed every step (a condition on the lines
    printed so far, then an action), then stop it as Ctrl-C does: on what it showed, not after
    a fixed time (issue 29: 2.5 s of monitoring while a press could take 5 s to set up)."""
    out = Out()
    stops: list[threading.Event] = []
    real_watch = monitor_cmd.watch

    def watch(*a: Any) -> None:
        stops.append(a[-1])  # the stop event Ctrl-C sets
        real_watch(*a)

    monkeypatch.setattr(monitor_cmd, "watch", watch)
    monkeypatch.setattr(sys, "stdout", out)
    failed: list[str] = []

    def drive() -> None:
        for n, (done, act) in enumerate(steps):
            if not out.wait(lambda lines, done=done: bool(stops) and done(lines)):
                failed.append(f"step {n} never came")
                break
            act()
        if stops:
            stops[0].set()

    driver = threading.Thread(target=drive)
    driver.start()
    code = main(["monitor", "--json", *args, "--seconds", "300"])  # 300: a safety net only
    driver.join()
    assert not failed, failed
    return code, out.lines(), capsys.readouterr().err


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _moves(lines: list[Any]) -> list[Any]:
    return [x["move"] for x in lines if "move" in x]


def test_the_sim_demo_shows_moves_named_from_its_own_tile_set(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    code, lines, err = monitor_until(monkeypatch, capsys, [
        "--data-dir", str(tmp_path), "--pace", "0.1"],
        # the demo deals round the seats from rack 1; which board reports first is the
        # boards' timing (a busy host delays one), so wait for rack 1's tile as an event
        [(lambda lines: len(_moves(lines)) >= 5
          and any(m["to"] == "rack:1" for m in _moves(lines)), lambda: None)])
    assert (code, err) == (0, "")
    assert any("virtual table's own tagged set" in x.get("note", "") for x in lines)
    box = TileBox(bonus_tiles=True, seed=0).registry
    moves = [x["move"] for x in lines if "move" in x]
    assert len(moves) >= 5
    assert all(box[m["uid"]] == m["tile"] for m in moves)
    assert moves[0]["from"] == "wall" and moves[0]["to"].startswith("rack:")
    assert any(m["from"] == "wall" and m["to"] == "rack:1" for m in moves)
    scans = [x["scan"] for x in lines if "scan" in x]
    assert scans[0]["tiles"] == [box[u] for u in scans[0]["uids"]]
    assert lines[-1]["summary"]["moves"] == len(moves)
    assert not (tmp_path / "registry.sqlite").exists()  # looking creates nothing


def test_enrolled_tiles_are_used_when_there_are_some(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path,
                                                     registry: TileRegistry) -> None:
    code, lines, _ = monitor_until(monkeypatch, capsys, [
        "--data-dir", str(tmp_path), "--pace", "0.1"],
        [(lambda lines: len(_moves(lines)) >= 2, lambda: None)])
    assert code == 0
    assert any(x.get("note") == f"2 tiles enrolled in {tmp_path}" for x in lines)
    moved = {(m["move"]["uid"], m["move"]["tile"]) for m in lines if "move" in m}
    assert moved and moved <= set(TILES.items())


def test_mfrc522_tags_and_a_button_over_the_fakes(hw: FakeHardware,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    rack = FakeMFRC522()
    hw.spi.attach(0, 0, rack)
    hw.spi.attach(0, 1, FakeMFRC522())
    rack.place(VirtualTag(bytes.fromhex("04A219C15E2280")))

    def ready(_: list[Any]) -> bool:  # the seat I/O is set up
        return hw.gpio.level(SEAT1["mahjong"]) is not None

    def pressed(lines: list[Any]) -> bool:  # held until the monitor shows the press
        return any("button" in x for x in lines)

    code, lines, _ = monitor_until(
        monkeypatch, capsys, ["--config", write(tmp_path, mfrc522_toml(tmp_path))],
        [(ready, lambda: hw.gpio.press(SEAT1["mahjong"])),
         (pressed, lambda: hw.gpio.release(SEAT1["mahjong"])),
         (lambda lines: any("scan" in x for x in lines) and any("anomaly" in x for x in lines),
          lambda: None)])
    assert code == 0
    assert any("tiles show as UIDs" in x.get("note", "") for x in lines)
    scans = [x["scan"] for x in lines if "scan" in x]
    assert scans[0] == {"channel": "spi/0", "zone": "rack:1", "uids": ["04:A2:19:C1:5E:22:80"],
                        "tiles": [None]}
    anomalies = [x["anomaly"] for x in lines if "anomaly" in x]
    assert anomalies[0]["kind"] == "unknown_uid" and anomalies[0]["uid"] == "04:A2:19:C1:5E:22:80"
    assert [x["button"] for x in lines if "button" in x] == [
        {"seat": 1, "button": "mahjong", "declare": "mahjong"}]
    assert {"board": "buttons", "state": "up", "detail": "1 seat(s) with buttons"} in [
        x["health"] for x in lines if "health" in x]
    assert None not in hw.gpio.cleanups


def test_no_channels_is_a_config_error(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    toml = "[readers]\nbackend = 'serial'\n[readers.serial]\nports = ['/dev/null']\n"
    code = main(["monitor", "--config", write(tmp_path, toml)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "[table.channels]" in err


def test_ctrl_c_ends_it_cleanly(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller", "monitor", "--data-dir", str(tmp_path)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout is not None
    for line in proc.stdout:  # wait until it is watching: the first move
        if "MOVE" in line:
            break
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=15)
    assert proc.returncode == 0, err
    assert out.splitlines()[-1].startswith("stopped after ")
    # nothing on stderr but what a loaded host makes the virtual boards say (sim_board.HELD_UP_S;
    # loaded run 27: four boards' heartbeats 0.36-0.54 s late while it started)
    assert [line for line in err.splitlines() if "its heartbeat went out" not in line] == [], err
