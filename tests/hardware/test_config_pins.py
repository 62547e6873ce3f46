"""The [readers.mfrc522] and seat pin parts of the config: what the back-ends need, checked."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.config import ConfigError, parse_config

MFRC = "[readers]\nbackend = 'mfrc522'\n[readers.mfrc522]\n"


def test_chips_become_the_back_ends_readers() -> None:
    cfg = parse_config(MFRC + "board = 'east'\nchips = [{bus = 0, device = 0, pin_rst = 25},"
                       " {bus = 0, device = 1, pin_rst = 24, pin_cs = 5, channel = 3}]\n")
    assert cfg.readers.mfrc522.board == "east"
    assert cfg.readers.mfrc522.readers() == [
        {"bus": 0, "device": 0, "pin_rst": 25},
        {"bus": 0, "device": 1, "pin_rst": 24, "pin_cs": 5, "channel": 3}]
    assert sorted(cfg.readers.mfrc522.pins()) == [5, 24, 25]


@pytest.mark.parametrize(("chips", "needle"), [
    ("[{bus = 0, device = 0, pin_rst = 25}, {bus = 0, device = 0, pin_rst = 24}]",
     "two chips on bus 0 device 0 without pin_cs"),
    ("[{bus = 0, device = 0, pin_rst = 25}, {bus = 0, device = 1, pin_rst = 24, channel = 0}]",
     "two chips have channel 0"),
    ("[{bus = 0, device = 1, pin_rst = 25}, {bus = 0, device = 1, pin_rst = 24, pin_cs = 5}]",
     "with and without pin_cs"),
    ("[{bus = 0, device = 1, pin_rst = 25, pin_cs = 5}, {bus = 0, device = 1, pin_rst = 24,"
     " pin_cs = 5}]", "GPIO 5 is used twice"),
    ("[{bus = 0, device = 0, pin_rst = 25, cs_pin = 8}]", "unknown key 'cs_pin'"),
    ("[{bus = 0, device = 0}]", "pin_rst"),
])
def test_chip_mistakes_are_named(chips: str, needle: str) -> None:
    with pytest.raises(ConfigError, match=needle):
        parse_config(MFRC + f"chips = {chips}\n", "t.toml")


def test_seat_pins_all_three_buttons_or_none() -> None:
    cfg = parse_config("[table.seats.2]\ncall_pin = 5\nready_pin = 6\nmahjong_pin = 13\n"
                       "led_pin = 19\n[table.seats.3]\nname = 'C'\n")
    assert cfg.table.seat_pins() == {2: {"call": 5, "ready": 6, "mahjong": 13, "led": 19}}
    with pytest.raises(ConfigError, match=r"t.toml:1: table.seats.1: give all three button"):
        parse_config("[table.seats.1]\ncall_pin = 5\n", "t.toml")
    with pytest.raises(ConfigError, match="led_pin needs"):
        parse_config("[table.seats.1]\nled_pin = 5\n", "t.toml")


@given(st.integers(0, 27), st.sampled_from(["call_pin", "ready_pin", "mahjong_pin", "led_pin"]))
def test_a_reader_pin_reused_by_a_seat_is_refused(pin: int, key: str) -> None:
    others = iter(p for p in range(27, -1, -1) if p != pin)
    pins = {k: pin if k == key else next(others)
            for k in ("call_pin", "ready_pin", "mahjong_pin", "led_pin")}
    seat = "[table.seats.1]\n" + "".join(f"{k} = {v}\n" for k, v in pins.items())
    chip = "chips = [{{bus = 0, device = 0, pin_rst = {}}}]\n"
    with pytest.raises(ConfigError, match=f"GPIO {pin} is both a reader pin"):
        parse_config(MFRC + chip.format(pin) + seat, "t.toml")
    free = next(p for p in range(28) if p not in pins.values())
    assert parse_config(MFRC + chip.format(free) + seat).readers.mfrc522.pins() == [free]
