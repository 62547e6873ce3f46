"""`mahjong-table readers`: against the virtual table, and the mfrc522 back-end over the fakes."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main
from controller.cli.readers_cmd import channel_ranges, zone_summary
from firmware_bridge.fakes import FakeHardware, FakeMFRC522, VirtualTag
from tests.hardware.helpers import mfrc522_toml

NTAG = bytes.fromhex("04A219C15E2280")


def readers(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    # the probe listens for a fixed time by design: 2 s, for boards on a busy host to answer
    code = main(["readers", "--seconds", "2", *args])
    out, err = capsys.readouterr()
    return code, json.loads(out) if "--json" in args and out else out, err


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_virtual_table_is_all_up(capsys: pytest.CaptureFixture[str]) -> None:
    code, report, err = readers(capsys, "--json")
    assert (code, err) == (0, "")
    assert report["ok"] is True and report["backend"] == "sim"
    boards = {r["name"]: r for r in report["readers"]}
    assert sorted(boards) == ["centre", "seat1", "seat2", "seat3", "seat4"]
    for board in boards.values():
        assert board["state"] == "up" and board["firmware"] == "sim-1.0"
        assert all(c["answering"] for c in board["channels"].values())
        assert board["frames"] > 0 and board["bad_frames"] == 0
    assert boards["seat2"]["channels"]["seat2/20"]["zone"] == "melds:2"
    assert boards["centre"]["channels"] == {"centre/0": {"zone": "discard", "answering": True}}


def test_the_text_report_names_boards_and_zones(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = readers(capsys)
    assert code == 0
    assert "seat3   up     sim-1.0   34/34" in out
    assert "rack:3 (0-17), melds:3 (18-33)" in out
    assert out.rstrip().endswith("all 5 boards up; every mapped channel answers")


def test_a_mapped_channel_no_board_has_is_a_problem(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    toml = "[table.channels]\n'seat1/0' = 'rack:1'\n'centre/1' = 'river'\n'east/0' = 'rack:2'\n"
    code, report, _ = readers(capsys, "--config", write(tmp_path, toml), "--json")
    assert code == 1 and report["ok"] is False
    assert [p.split(":")[0] for p in report["problems"]] == ["centre/1 (river)", "east/0 (rack"]
    assert "seat1/1-33" in channel_ranges(report["unmapped"])


def test_a_config_error_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    code, out, err = readers(capsys, "--config", write(tmp_path, "[readers]\nbakend = 1\n"))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "unknown key 'bakend'" in err
    code, _, err = readers(capsys, "--config", write(tmp_path, "[readers]\nbackend = 'serial'\n"))
    assert code == 2 and "[readers.serial] boards" in err


def test_mfrc522_chips_over_the_fakes(hw: FakeHardware, capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    rack, pad = FakeMFRC522(), FakeMFRC522()
    hw.spi.attach(0, 0, rack)
    hw.spi.attach(0, 1, pad)
    rack.place(VirtualTag(NTAG))
    code, report, _ = readers(capsys, "--config", write(tmp_path, mfrc522_toml(tmp_path)),
                              "--json")
    assert code == 0, report["problems"]
    chips = {r["name"]: r for r in report["readers"]}
    assert chips["spi/0"]["tags"] == ["04:A2:19:C1:5E:22:80"] and chips["spi/1"]["tags"] == []
    assert chips["spi/0"]["firmware"] == "0x92" and chips["spi/0"]["spi"] == {
        "bus": 0, "device": 0, "pin_rst": 25}
    assert 0 < chips["spi/0"]["reads"] <= chips["spi/0"]["polls"]
    assert chips["spi/1"]["channels"] == {"spi/1": {"zone": "discard", "answering": True}}
    assert None not in hw.gpio.cleanups  # released its own pins only


def test_a_chip_that_does_not_answer_is_down(hw: FakeHardware,
                                             capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    hw.spi.attach(0, 0, FakeMFRC522())
    hw.spi.attach_gpio_cs(0, 16, FakeMFRC522())  # nothing on chip select 26: MISO floats high
    toml = ("[data]\ndir = 'd'\n[readers]\nbackend = 'mfrc522'\n[readers.mfrc522]\nchips = ["
            "{bus = 0, device = 0, pin_rst = 25}, {bus = 0, device = 1, pin_rst = 24, pin_cs = 26},"
            " {bus = 0, device = 1, pin_rst = 23, pin_cs = 16}]\n")
    code, out, _ = readers(capsys, "--config", write(tmp_path, toml))
    assert code == 1
    assert "spi/0  up" in out and "spi/1  down" in out and "spi/2  up" in out
    assert "problem: spi/1: down (version register reads 0xFF" in out


def test_a_missing_spi_device_says_what_to_do(hw: FakeHardware, capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    hw.spi.attach(0, 0, FakeMFRC522())  # nothing on /dev/spidev0.1
    code, report, _ = readers(capsys, "--config", write(tmp_path, mfrc522_toml(tmp_path)),
                              "--json")
    assert code == 1
    assert all(r["state"] == "down" for r in report["readers"])
    assert "/dev/spidev0.1" in report["problems"][0] and "raspi-config" in report["problems"][0]


def test_off_a_pi_the_mfrc522_readers_are_down(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "RPi", None)
    code, report, err = readers(capsys, "--config", write(tmp_path, mfrc522_toml(tmp_path)),
                                "--json")
    assert (code, err) == (1, "")
    assert "serial back-end" in report["problems"][0]


def test_zone_summary_groups_consecutive_antennas() -> None:
    zones = {f"b/{n}": "rack:1" for n in range(3)} | {"b/3": "melds:1", "b/5": "melds:1"}
    chans = [f"b/{n}" for n in (5, 0, 1, 2, 3, 4)]
    assert zone_summary(chans, zones) == "rack:1 (0-2), melds:1 (3), unmapped (4), melds:1 (5)"
    assert channel_ranges({"b/1", "b/2", "a/7", "b/4"}) == "a/7, b/1-2, b/4"


def test_serial_boards_by_port_one_unplugged(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    from firmware_bridge.sim import BoardSpec, VirtualTable

    layout = (BoardSpec("seat1", "T-SEAT1", (("rack:1", 2),)),
              BoardSpec("centre", "T-CENTRE", (("discard", 1),)))
    with VirtualTable(layout, scan_ms=2, snapshot_ms=100, heartbeat_ms=40) as table:
        ports = table.start()
        table.place("DE:AD:BE:EF", "seat1/1")
        # the centre board unplugged: its device node is gone (a pty path freed by unplugging
        # a virtual board may be taken at once by another test's board on a shared host)
        centre = str(tmp_path / "ttyACM-unplugged")
        toml = ("[readers]\nbackend = 'serial'\n[readers.serial]\n"
                f"ports = {[ports['T-SEAT1'], centre]!r}\n[table.channels]\n"
                "'seat1/0' = 'rack:1'\n'seat1/1' = 'rack:1'\n"
                "'centre/0' = 'discard'\n")
        code, report, _ = readers(capsys, "--config", write(tmp_path, toml), "--json")
    assert code == 1
    boards = {r["name"]: r for r in report["readers"]}
    assert boards["seat1"]["state"] == "up" and boards["seat1"]["port"] == ports["T-SEAT1"]
    assert boards["seat1"]["serial"] == "T-SEAT1" and boards["seat1"]["tags"] == ["DE:AD:BE:EF"]
    assert boards[centre]["state"] == "down"
    assert report["problems"][0].startswith(f"{centre}: down")
    assert report["problems"][-1] == ("not heard, probably on a reader that is down: centre/0")


def test_a_chip_that_loses_its_registers_is_flaky(hw: FakeHardware,
                                                 capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    import threading

    from firmware_bridge.fakes.mfrc522_chip import VERSION

    hw.spi.attach(0, 0, FakeMFRC522())
    browned = FakeMFRC522()
    hw.spi.attach(0, 1, browned)

    def lose_registers() -> None:  # a power dip: the version register reads 0 until a reset
        deadline = time.monotonic() + 30
        while not browned.frames and time.monotonic() < deadline:
            time.sleep(0.01)  # the command is polling
        browned.regs[VERSION] = 0x00

    brown_out = threading.Thread(target=lose_registers)
    brown_out.start()
    # a health check every 50 polls; a poll is at least the fields' 5.1 ms settle
    code, report, _ = readers(capsys, "--config", write(tmp_path, mfrc522_toml(tmp_path)),
                              "--json", "--seconds", "4")
    brown_out.join()
    assert code == 1
    chips = {r["name"]: r for r in report["readers"]}
    assert chips["spi/0"]["state"] == "up" and chips["spi/0"]["resets"] == 0
    assert chips["spi/1"]["state"] == "flaky" and chips["spi/1"]["resets"] >= 1
    assert report["problems"] == [f"spi/1: flaky ({chips['spi/1']['detail']})"]
