"""`enroll --reader config` with an mfrc522 table: fake chips -> the real mfrc522 package ->
the pad's scans -> the registry. Off a Pi the command says what to install, with no traceback."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

from controller.cli import main
from controller.table import TileRegistry
from controller.tiles import glyph
from firmware_bridge.fakes import FakeHardware, FakeMFRC522, VirtualTag
from tests.hardware.helpers import mfrc522_toml

LAST_UID = "04:A2:19:C1:5E:22:80"


def _config(tmp_path: Path) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(mfrc522_toml(tmp_path, buttons=False))  # spi/1 is the discard pad
    return path


def test_enroll_reads_the_pad_through_the_configured_mfrc522_chips(
    hw: FakeHardware, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    registry = TileRegistry.open(tmp_path, 136)
    for n in range(135):  # a walk stopped one tile short: it resumes at the last tile
        registry.add(f"04:00:00:00:00:00:{n:02X}", str(registry.next_tile()))
    last = registry.next_tile()
    rack, pad = FakeMFRC522(), FakeMFRC522()
    hw.spi.attach(0, 0, rack)
    hw.spi.attach(0, 1, pad)
    rack.place(VirtualTag(bytes.fromhex("04000000000001")))  # on a rack: not enrolled
    pad.place(VirtualTag(bytes.fromhex(LAST_UID.replace(":", ""))))
    argv = ["enroll", "--data-dir", str(tmp_path), "--reader", "config",
            "--config", str(_config(tmp_path))]
    done: dict[str, int] = {}
    walk = threading.Thread(target=lambda: done.setdefault("code", main(argv)), daemon=True)
    walk.start()
    walk.join(timeout=30)  # the walk ends when the set is complete; a broken read would hang
    out = capsys.readouterr().out
    assert not walk.is_alive(), f"the pad's tag was never enrolled:\n{out}"
    assert done["code"] == 0, out
    assert last is not None
    assert "135/136" in out and f"{last} {glyph(last)} enrolled as {LAST_UID}" in out
    assert "the set is complete" in out
    again = TileRegistry.open(tmp_path)
    assert len(again) == 136 and again[LAST_UID] == last


def test_enroll_with_the_config_reader_off_a_pi_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "RPi", None)  # `import RPi.GPIO` fails, as off a Pi
    code = main(["enroll", "--data-dir", str(tmp_path), "--reader", "config",
                 "--config", str(_config(tmp_path))])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "cannot start the readers" in err and "`pi` extra" in err
    assert "Traceback" not in err


def test_enroll_with_the_config_reader_needs_a_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["enroll", "--data-dir", str(tmp_path), "--reader", "config"]) == 2
    assert "--reader config needs --config FILE" in capsys.readouterr().err
