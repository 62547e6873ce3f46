"""A whole board on the virtual clock: the firmware's own code, one fake MFRC522 per coil.

    model = BoardModel.seat("seat1")           # the layout's seat board, its field schedule
    model.place(5, VirtualTag(uid))            # a tile over slot 5
    model.run_until_us(200_000)                # the firmware runs; its frames in model.frames()

The chips share the hal's VirtualClock, so every SPI transaction, every frame on the air, every
timeout and the fields' settling cost the time the datasheet and ISO/IEC 14443-3 give
(firmware_bridge.fakes.rf_time). Coils too close for their fields to be on together
(firmware_bridge.field_schedule.conflict) jam each other's commands, so a schedule that let
them would lose reads here as on a table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from firmware_bridge import protocol as P
from firmware_bridge.fakes.board_hal import FakeBoardHal, load_firmware
from firmware_bridge.fakes.iso14443_tag import VirtualTag
from firmware_bridge.fakes.mfrc522_chip import FakeMFRC522
from firmware_bridge.fakes.rf_time import VirtualClock
from firmware_bridge.field_schedule import Coil, conflict, load_layout, schedule

SPI_HZ = 4_000_000  # hal.py's baudrate


class BoardModel:
    """One board: its coils' chips wired as the layout puts them, the firmware's Board."""

    def __init__(self, name: str, coils: Sequence[Coil], spi_hz: int = SPI_HZ,
                 groups: list[list[int]] | None = None, **board_options: Any) -> None:
        self.clock = VirtualClock()
        self.chips = {c.channel: FakeMFRC522(self.clock, spi_hz) for c in coils}
        for a in coils:
            self.chips[a.channel].interferers = [
                self.chips[b.channel] for b in coils if b is not a and conflict(a, b)]
        self.hal = FakeBoardHal(name, f"E66058{abs(hash(name)) % 10**10:010d}", self.chips,
                                self.clock, groups if groups is not None else schedule(coils))
        self.board = load_firmware("fw_board").Board(self.hal, **board_options)
        self.board.start()
        self._decoder = P.StreamDecoder()
        self._read = 0

    @classmethod
    def seat(cls, name: str = "seat1", **kw: Any) -> BoardModel:
        """A seat board of the layout (hardware_docs/boards/layout.json)."""
        return cls(name, [c for c in load_layout() if c.board == "seat"], **kw)

    @classmethod
    def centre(cls, **kw: Any) -> BoardModel:
        return cls("centre", [c for c in load_layout() if c.board == "centre"], **kw)

    @property
    def now_us(self) -> float:
        return self.clock.us

    def place(self, channel: int, tag: VirtualTag) -> VirtualTag:
        return self.chips[channel].place(tag)

    def take(self, channel: int, tag: VirtualTag) -> None:
        self.chips[channel].take(tag)

    def transactions(self) -> int:
        return sum(c.transfers for c in self.chips.values())

    def step(self) -> None:
        """One pass of the firmware's main loop (Board.run), its wait included."""
        self.board.step()
        wait = self.board.sweeper.wait_us() if self.board.sweeper is not None else 0
        self.hal.wait_us(min(wait, 1000) if wait else 0)

    def run_until_us(self, t_us: float) -> None:
        while self.clock.us < t_us:
            self.step()

    def frames(self) -> list[tuple[float, P.Message]]:
        """The blocks the firmware wrote since the last call, each with the time it wrote it."""
        out = []
        for at, data in self.hal.log[self._read:]:
            out += [(at, b.message) for b in self._decoder.feed(data)]
        self._read = len(self.hal.log)
        return out
