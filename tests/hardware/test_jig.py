"""The test jig: `mahjong-table readers --jig UID` over a reference tile moved slot by slot."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from controller.cli import main
from controller.cli.jig import jig_report
from firmware_bridge.fakes import FakeHardware, FakeMFRC522, VirtualTag
from firmware_bridge.types import ChannelScan

REF = "04:A2:19:C1:5E:22:80"


def story(*rows: tuple[str, str]) -> list[ChannelScan]:
    """One row per round of scans: (channel, "x" read / "." not) pairs, 0.1 s a round."""
    scans = []
    for i, row in enumerate(rows):
        for channel, hit in zip(row[0].split(), row[1].split(), strict=True):
            scans.append(ChannelScan(channel, frozenset({REF} if hit == "x" else ()), i * 0.1))
    return scans


CH = "s/0 s/1 s/2"


def test_a_clean_run_passes_and_carrying_the_tile_is_no_miss() -> None:
    scans = story((CH, "x . ."), (CH, "x . ."), (CH, "x . ."), (CH, ". . ."), (CH, ". x ."),
                  (CH, ". x ."), (CH, ". . x"), (CH, ". . x"))
    report = jig_report(scans, REF, ["s/0", "s/1", "s/2"])
    assert report["pass"], report["problems"]
    assert [(s["channel"], s["reads"], s["scans"]) for s in report["slots"]] == [
        ("s/0", 3, 3), ("s/1", 2, 2), ("s/2", 2, 2)]


def test_a_miss_and_a_neighbour_read_fail_with_their_figures() -> None:
    scans = story((CH, "x . ."), (CH, "x . ."), (CH, ". . ."), (CH, "x x ."), (CH, "x . ."),
                  (CH, ". x ."), (CH, ". x ."))
    report = jig_report(scans, REF, ["s/0", "s/1", "s/2"])
    s0 = report["slots"][0]
    assert (s0["channel"], s0["reads"], s0["scans"], s0["reads_pct"]) == ("s/0", 4, 5, 80.0)
    assert s0["neighbour_reads"] == {"s/1": 1}
    assert report["not_visited"] == ["s/2"] and not report["pass"]
    assert len(report["problems"]) == 3


def test_the_readers_command_reports_a_jig_run_over_the_spi_chips(
        hw: FakeHardware, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    chips = [hw.spi.attach(0, d, FakeMFRC522()) for d in range(3)]
    toml = (f"[data]\ndir = '{tmp_path}'\n[readers]\nbackend = 'mfrc522'\n"
            "[readers.mfrc522]\nboard = 'spi'\nchips = [" + ", ".join(
                f"{{bus = 0, device = {d}, pin_rst = {20 + d}}}" for d in range(3)) + "]\n"
            "[table.channels]\n'spi/0' = 'rack:1'\n'spi/1' = 'rack:1'\n'spi/2' = 'rack:1'\n")
    (tmp_path / "table.toml").write_text(toml)
    moved = threading.Event()

    def jig() -> None:  # the reference tile over slot 0, then slot 1 (slot 2 reads it too)
        tag = chips[0].place(VirtualTag(bytes.fromhex(REF.replace(":", ""))))
        deadline = time.monotonic() + 30
        while len(chips[0].frames) < 20 and time.monotonic() < deadline:
            time.sleep(0.01)  # the command is polling (it may take a while to start)
        time.sleep(0.3)
        chips[0].take(tag)
        chips[1].place(tag)
        chips[2].place(VirtualTag(tag.uid))  # a neighbour's field reaching it
        moved.set()

    mover = threading.Thread(target=jig)
    mover.start()
    code = main(["readers", "--seconds", "3", "--config", str(tmp_path / "table.toml"),
                 "--json", "--jig", REF.replace(":", "").lower()])
    mover.join()
    report = json.loads(capsys.readouterr().out)
    assert moved.is_set() and code == 1
    slots = {s["channel"]: s for s in report["jig"]["slots"]}
    assert slots["spi/0"]["reads"] == slots["spi/0"]["scans"] >= 2
    assert slots["spi/0"]["neighbour_reads"] == {}
    assert slots["spi/1"]["neighbour_reads"].get("spi/2", 0) >= 1
    assert any("neighbour read" in p for p in report["problems"])
