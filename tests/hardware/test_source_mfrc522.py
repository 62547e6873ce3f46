"""A configured mfrc522 table through the composition root: fake chips -> real mfrc522 package
-> moves in the log; seat buttons on the fake GPIO -> declarations."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest

from controller.app import build
from controller.config import parse_config
from controller.sources.backends import open_reader
from controller.store import EventLog
from controller.table import TileRegistry
from firmware_bridge.errors import BridgeConfigError
from firmware_bridge.fakes import FakeHardware, FakeMFRC522, VirtualTag
from firmware_bridge.mfrc522_backend import Mfrc522Backend
from firmware_bridge.seat_io import BUTTONS_BOARD, WithSeatIO
from firmware_bridge.types import BoardHealth, ButtonPress
from tests.hardware.helpers import SEAT1, mfrc522_toml
from tests.waiting import until_async

NTAG = VirtualTag(bytes.fromhex("04A219C15E2280"))


def _logged(data_dir: Path) -> list[dict[str, Any]]:
    with EventLog.open(data_dir / "events.sqlite", readonly=True) as log:
        return [r.event for r in log.records(log.session().id)]


def _moves(data_dir: Path) -> list[tuple[str, str, str]]:
    return [(e["move"]["tile"], e["move"]["from"], e["move"]["to"])
            for e in _logged(data_dir) if "move" in e]


async def test_a_configured_mfrc522_table_yields_moves_and_button_declarations(
        hw: FakeHardware, registry: TileRegistry, tmp_path: Path) -> None:
    rack, pad = FakeMFRC522(), FakeMFRC522()
    hw.spi.attach(0, 0, rack)
    hw.spi.attach(0, 1, pad)
    config = parse_config(mfrc522_toml(tmp_path))
    service = build(config, tmp_path, table="readers").loop
    assert service.source_names() == ["table"]
    await service.start()
    try:
        tag = rack.place(NTAG)
        await until_async(lambda: len(_moves(tmp_path)) == 1, 8.0)
        rack.take(tag)
        pad.place(tag)
        await until_async(lambda: len(_moves(tmp_path)) == 2, 8.0)
        # seat I/O is set up
        await until_async(lambda: hw.gpio.level(SEAT1["call"]) is not None, 8.0)
        hw.gpio.press(SEAT1["call"])
        # held until the press is taken (past the 30 ms debounce, however busy the host)
        await until_async(lambda: any("declare" in e for e in _logged(tmp_path)), 60)
        hw.gpio.release(SEAT1["call"])
        health = service.status().readers
    finally:
        await service.stop()
    assert _moves(tmp_path) == [("5b", "wall", "rack:1"), ("5b", "rack:1", "discard")]
    assert [e["declare"] for e in _logged(tmp_path) if "declare" in e] == [
        {"seat": 1, "call": "claim"}]
    assert health[BUTTONS_BOARD]["ok"] is True
    # stopped: only our own pins released, never the global GPIO.cleanup()
    assert None not in hw.gpio.cleanups
    assert {24, 25, *SEAT1.values()} <= set(hw.gpio.cleanups)


def test_open_reader_builds_the_mfrc522_back_end_from_the_config(tmp_path: Path) -> None:
    config = parse_config(mfrc522_toml(tmp_path, buttons=False))
    backend = open_reader(config, buttons=True)
    assert isinstance(backend, Mfrc522Backend)
    assert backend.board == "spi" and backend.channels == [0, 1]
    assert [(s.bus, s.device, s.pin_rst) for s in backend.specs] == [(0, 0, 25), (0, 1, 24)]
    wrapped = open_reader(parse_config(mfrc522_toml(tmp_path)), buttons=True)
    assert isinstance(wrapped, WithSeatIO) and wrapped.seat_io.seats[1].call == SEAT1["call"]


def test_no_chips_is_a_clear_error() -> None:
    config = parse_config("[readers]\nbackend = 'mfrc522'\n")
    with pytest.raises(BridgeConfigError, match=r"no chips: list them in \[readers.mfrc522\]"):
        open_reader(config)


def test_buttons_off_a_pi_are_reported_down_and_the_readers_go_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "RPi", None)  # `import RPi.GPIO` fails, as off a Pi
    seat = "".join(f"{k}_pin = {v}\n" for k, v in SEAT1.items())
    config = parse_config(f"[readers]\nbackend = 'sim'\n[table.seats.1]\n{seat}")
    backend = open_reader(config, buttons=True)
    assert isinstance(backend, WithSeatIO)
    backend.start()
    events: list[Any] = []
    try:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not (
                _health(events, BUTTONS_BOARD) and _health(events, "seat1")):
            events.append(backend.get(timeout=0.5))
    finally:
        backend.stop()
    health = [e for e in events if isinstance(e, BoardHealth)]
    buttons = [h for h in health if h.board == BUTTONS_BOARD]
    assert [h.state for h in buttons] == ["down"] and "pi` extra" in buttons[0].detail
    assert any(h.state == "up" and h.board.startswith("seat") for h in health)
    assert not any(isinstance(e, ButtonPress) for e in events)


def _health(events: list[Any], board: str) -> list[BoardHealth]:
    return [e for e in events if isinstance(e, BoardHealth) and e.board == board]


async def test_a_violation_sounds_the_buzzer(
        hw: FakeHardware, registry: TileRegistry, tmp_path: Path) -> None:
    hw.spi.attach(0, 0, FakeMFRC522())
    hw.spi.attach(0, 1, FakeMFRC522())
    toml = mfrc522_toml(tmp_path).replace("[table.seats.1]", "[table]\nbuzzer_pin = 26\n"
                                          "[table.seats.1]")
    config = parse_config(toml)
    service = build(config, tmp_path, table="readers").loop
    assert service.source_names() == ["table"]
    await service.start()
    try:
        # seat I/O is set up
        await until_async(lambda: hw.gpio.level(SEAT1["call"]) is not None, 8.0)
        assert hw.gpio.level(26) in (0, None)
        refused = await service.submit({"declare": {"seat": 1, "call": "mahjong"}}, "seat:1")
        assert not refused.accepted
        await until_async(lambda: 1 in hw.gpio.levels(26), 8.0)
    finally:
        await service.stop()
