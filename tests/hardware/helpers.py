"""Shared pieces of the hardware-command tests: a tiny registry and an mfrc522 table config."""

from __future__ import annotations

from pathlib import Path

#: Two tagged tiles: an NTAG-style 7-byte UID and a 4-byte one.
TILES = {"04:A2:19:C1:5E:22:80": "5b", "DE:AD:BE:EF": "ew"}
#: Seat 1's buttons and LED (BCM), away from the readers' reset pins.
SEAT1 = {"call": 5, "ready": 6, "mahjong": 13, "led": 19}


def mfrc522_toml(data_dir: Path, buttons: bool = True) -> str:
    """A table with two MFRC522 chips (rack:1 and the discard pad) and seat 1's buttons."""
    seat = "".join(f"{k}_pin = {v}\n" for k, v in SEAT1.items()) if buttons else "name = 'A'\n"
    return (
        f"[data]\ndir = '{data_dir}'\n"
        "[readers]\nbackend = 'mfrc522'\nscan_interval = 0.02\nabsent_after = 0.2\n"
        "[readers.mfrc522]\nboard = 'spi'\n"
        "chips = [{bus = 0, device = 0, pin_rst = 25}, {bus = 0, device = 1, pin_rst = 24}]\n"
        "[table.channels]\n'spi/0' = 'rack:1'\n'spi/1' = 'discard'\n"
        f"[table.seats.1]\n{seat}"
    )
