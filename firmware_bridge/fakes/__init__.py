"""Fake hardware shipped beside the real drivers: RPi.GPIO, spidev and an MFRC522 with tags.

    hw = install()                       # puts fake RPi, RPi.GPIO and spidev into sys.modules
    chip = hw.spi.attach(0, 0, FakeMFRC522())
    chip.place(VirtualTag(bytes.fromhex("04A219C15E2280")))
    hw.gpio.press(17)                    # a seat button
    hw.uninstall()                       # restores whatever sys.modules held before

Only the lowest layer is faked: the real `mfrc522` package and our back-ends run unchanged.
"""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass, field

from firmware_bridge.fakes.gpio import FakeGPIO, module_namespace
from firmware_bridge.fakes.mfrc522_chip import FakeMFRC522, VirtualTag, crc_a
from firmware_bridge.fakes.spidev import FakeSpiBus, SpiDev

__all__ = ["FakeGPIO", "FakeHardware", "FakeMFRC522", "FakeSpiBus", "VirtualTag", "crc_a",
           "install"]

_REPLACED = ("RPi", "RPi.GPIO", "spidev")
# modules that captured the real (or an earlier fake) GPIO/spidev at import time
_DEPENDENTS = ("mfrc522", "mfrc522.MFRC522", "mfrc522.SimpleMFRC522")


@dataclass
class FakeHardware:
    """The installed fakes and what sys.modules held before."""

    gpio: FakeGPIO
    spi: FakeSpiBus
    saved: dict[str, types.ModuleType | None] = field(default_factory=dict)

    def uninstall(self) -> None:
        for name, module in self.saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module

    def __enter__(self) -> FakeHardware:
        return self

    def __exit__(self, *exc: object) -> None:
        self.uninstall()


def install() -> FakeHardware:
    """Put fresh fake RPi.GPIO and spidev modules into sys.modules; returns their handles."""
    gpio = FakeGPIO()
    spi = FakeSpiBus(cs_level=gpio.level)
    saved = {name: sys.modules.get(name) for name in _REPLACED + _DEPENDENTS}
    for name in _DEPENDENTS:  # force a re-import that binds to the fakes
        sys.modules.pop(name, None)

    gpio_mod = types.ModuleType("RPi.GPIO", "fake RPi.GPIO (firmware_bridge.fakes)")
    gpio_mod.__dict__.update(module_namespace(gpio))
    rpi_mod = types.ModuleType("RPi", "fake RPi package (firmware_bridge.fakes)")
    rpi_mod.__path__ = []  # a package, so `import RPi.GPIO` resolves through sys.modules
    rpi_mod.GPIO = gpio_mod  # type: ignore[attr-defined]
    spidev_mod = types.ModuleType("spidev", "fake spidev (firmware_bridge.fakes)")
    spi_cls = type("SpiDev", (SpiDev,), {"bus_wiring": spi})
    spidev_mod.SpiDev = spi_cls  # type: ignore[attr-defined]
    sys.modules.update({"RPi": rpi_mod, "RPi.GPIO": gpio_mod, "spidev": spidev_mod})
    return FakeHardware(gpio, spi, saved)
