"""The MicroPython firmware's modules (flat layout in firmware_bridge/firmware/), imported by
CPython: the Pi's SPI back-end uses the firmware's MFRC522 driver, the fakes run the rest."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

FIRMWARE_DIR = Path(__file__).resolve().parent / "firmware"


def load_firmware(module: str = "fw_board") -> ModuleType:
    """Import a firmware module (flat MicroPython layout) from firmware_bridge/firmware/."""
    if str(FIRMWARE_DIR) not in sys.path:
        sys.path.insert(0, str(FIRMWARE_DIR))
    return importlib.import_module(module)
