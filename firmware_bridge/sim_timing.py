"""How long a board's sweep takes, for the virtual table: measured by running the firmware's
own code on the model (firmware_bridge.fakes.seat_model: the datasheet's and ISO/IEC
14443-3's timing, the field schedule, the anticollision loop), once per process.

``sweep_s(channels, counts)``: a board of ``channels`` coils whose fields hold ``counts`` tags
(channel -> how many) sweeps in this many seconds: the empty board's sweep (every group's
5.1 ms settle and one REQA round) plus, per channel, what its tags add (one tag: its cascade
levels; several: the anticollision loop, a SELECT and HLTA each and one more REQA).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

MAX_MEASURED = 3  # tags in one field measured; more add the last step's cost each


@dataclass(frozen=True)
class BoardTiming:
    empty_s: float
    per_field_s: tuple[float, ...]  # index n-1: what n tags in one field add

    def field_s(self, n: int) -> float:
        if n <= 0:
            return 0.0
        if n <= len(self.per_field_s):
            return self.per_field_s[n - 1]
        step = self.per_field_s[-1] - self.per_field_s[-2]
        return self.per_field_s[-1] + (n - len(self.per_field_s)) * step


def _sweep_us(model: object) -> float:
    """The time of one whole sweep, from the end of one to the end of the next."""
    from firmware_bridge.fakes.seat_model import BoardModel

    assert isinstance(model, BoardModel)
    ends: list[float] = []
    scans = model.board.scans
    while len(ends) < 3:
        model.step()
        if model.board.scans != scans:
            scans = model.board.scans
            ends.append(model.now_us)
    return ends[-1] - ends[-2]


@lru_cache(maxsize=4)
def board_timing(kind: str) -> BoardTiming:
    """Measured on the model: "seat" (a seat board of the layout) or "centre"."""
    from firmware_bridge.fakes.iso14443_tag import VirtualTag
    from firmware_bridge.fakes.seat_model import BoardModel

    make = BoardModel.seat if kind == "seat" else BoardModel.centre
    empty = _sweep_us(make())
    costs = []
    for n in range(1, MAX_MEASURED + 1):
        model = make()
        for i in range(n):
            model.place(0, VirtualTag(bytes([0x04, 0x10 + i, 0x20 * i, 3, 4, 5, 6 + i])))
        costs.append((_sweep_us(model) - empty) / 1e6)
    return BoardTiming(empty / 1e6, tuple(costs))


def sweep_s(channels: int, counts: Mapping[int, int]) -> float:
    """A board's sweep time with these tags; a one-coil board is the centre's."""
    timing = board_timing("seat" if channels > 1 else "centre")
    return timing.empty_s + sum(timing.field_s(n) for n in counts.values())
