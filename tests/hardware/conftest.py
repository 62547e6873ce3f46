"""Fixtures for the hardware commands: fake RPi.GPIO/spidev in sys.modules, a small registry."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.table import TileRegistry
from firmware_bridge.fakes import FakeHardware, install
from tests.hardware.helpers import TILES


@pytest.fixture
def hw() -> Iterator[FakeHardware]:
    with install() as fakes:
        yield fakes


@pytest.fixture
def registry(tmp_path: Path) -> TileRegistry:
    reg = TileRegistry.open(tmp_path, 136)
    reg.add_all(TILES.items())
    return reg
