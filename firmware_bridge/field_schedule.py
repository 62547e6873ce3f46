"""Which coils may have their fields on together: the field schedule, derived from the coil
layout (hardware_docs/timing.md, "Field schedule").

A coil's carrier reaching a neighbour's tag fills the pauses of the neighbour's 100 % ASK
commands; ISO/IEC 14443-2 (Type A, PCD to PICC modulation) wants the field in a pause
below 5 % of its level before it. The model: a coil of area A acts as a loop of the same
area (radius a = sqrt(A / pi)); its field at a tag over its centre at height z is
I a^2 / (2 (a^2 + z^2)^1.5) and a neighbour's field at distance r is at most I a^2 / (2 r^3)
(a magnetic dipole's field is largest on its axis), so two coils may be on together when
r >= 20^(1/3) * sqrt(a^2 + z^2), r taken from the neighbour's centre to the tag over this
coil, z the layout's worst tag distance (a face-down kong's tag, a stacked dora indicator's).
Coils closer than that go in different groups (a greedy colouring in channel order); each
group's fields are on, alone, for 5.1 ms before its first command.

    python -m firmware_bridge.field_schedule [--layout hardware_docs/boards/layout.json] [--write]

prints the groups per board, or writes them to firmware/fw_layout.py for the boards.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FIRMWARE_LAYOUT = Path(__file__).resolve().parent / "firmware" / "fw_layout.py"
REPO_LAYOUT = Path(__file__).resolve().parent.parent / "hardware_docs" / "boards" / "layout.json"
PAUSE_RESIDUE = 0.05  # ISO/IEC 14443-2, Type A PCD -> PICC: a pause below 5 % of the field
APART_MM = 1000.0  # boards the layout places apart (its placement_note: over 150 mm)
Vec = tuple[float, float, float]


@dataclass(frozen=True)
class Coil:
    """One coil: its board and channel, centre and normal towards its tag (mm, the seat's frame
    or its own board's), size (mm) and the tag's distance from it (the layout's worst case)."""

    board: str
    channel: int
    centre: Vec
    normal: Vec
    w: float
    h: float
    tag_mm: float

    @property
    def radius(self) -> float:
        return math.sqrt(self.w * self.h / math.pi)

    @property
    def tag(self) -> Vec:
        c, n = self.centre, self.normal
        return (c[0] + n[0] * self.tag_mm, c[1] + n[1] * self.tag_mm, c[2] + n[2] * self.tag_mm)


def _placed(zone: dict[str, Any], placement: dict[str, Any] | None, shift: float) -> list[Coil]:
    """A zone's coils in the seat's frame (rack, meld) or their own board's, moved by shift."""
    if placement is None:
        placement = {"origin_mm": [shift, 0.0, 0.0], "board_x_axis": [1, 0, 0],
                     "board_y_axis": [0, 1, 0], "coil_normal_towards_tag": [0, 0, 1]}
    o, xa, ya = (placement[k] for k in ("origin_mm", "board_x_axis", "board_y_axis"))
    n = placement["coil_normal_towards_tag"]
    tag = float(zone["tag_to_coil_mm"]["worst"])
    coils = []
    for c in zone["coils"]:
        cx, cy = c["centre_mm"]
        x, y, z = (float(o[i] + cx * xa[i] + cy * ya[i]) for i in range(3))
        coils.append(Coil(str(c["reader_board"]), int(c["channel"]), (x, y, z),
                          (float(n[0]), float(n[1]), float(n[2])), float(c["outer_x_mm"]),
                          float(c["outer_y_mm"]), tag))
    return coils


def fallback_zones() -> dict[str, Any]:
    """Until hardware_docs/boards/layout.json is in this tree (it comes with the coil boards):
    the same geometry by its numbers (26 mm slot pitch, 22 x 30 mm coils at board y 47 mm, the
    rack's lean face at 15 degrees, tags 5 mm (rack) and 21.3 mm (a face-down kong) away, a
    56 x 40 mm discard coil and the dora pad's 2 x 5 coils at 26 x 40 mm)."""
    def row(board: str, first: int, n: int, y: float = 47.0) -> list[dict[str, Any]]:
        return [{"reader_board": board, "channel": first + i, "centre_mm": [21.0 + 26 * i, y],
                 "outer_x_mm": 22.0, "outer_y_mm": 30.0} for i in range(n)]
    lean = {"origin_mm": [-242.0, 56.167, 2.505], "board_x_axis": [1, 0, 0],
            "board_y_axis": [0, 0.258819, 0.965926],
            "coil_normal_towards_tag": [0, -0.965926, 0.258819]}
    flat = {"origin_mm": [-216.0, 84.0, -3.6], "board_x_axis": [1, 0, 0],
            "board_y_axis": [0, 1, 0], "coil_normal_towards_tag": [0, 0, 1]}
    return {"placement_in_seat_frame": {"rack": lean, "meld": flat}, "zones": {
        "rack": {"tag_to_coil_mm": {"worst": 5.0}, "coils": row("seat", 0, 18)},
        "meld": {"tag_to_coil_mm": {"worst": 21.3}, "coils": row("seat", 18, 16)},
        "discard": {"tag_to_coil_mm": {"worst": 2.3}, "coils": [
            {"reader_board": "centre", "channel": 0, "centre_mm": [40.0, 52.0],
             "outer_x_mm": 56.0, "outer_y_mm": 40.0}]},
        "dora": {"tag_to_coil_mm": {"worst": 21.3},
                 "coils": row("centre", 1, 5) + row("centre", 6, 5, 87.0)}}}


def load_layout(path: Path = REPO_LAYOUT) -> list[Coil]:
    """Every coil of hardware_docs/boards/layout.json (fallback_zones() while it is not in
    this tree): a seat board's rack and meld coils in the seat's frame (its
    placement_in_seat_frame), the centre board's pads each in its own board's frame, set apart
    (the layout places them away from each other and from the seats)."""
    try:
        data = json.loads(path.read_text()) if path.exists() else fallback_zones()
        placements = data.get("placement_in_seat_frame", {})
        coils: list[Coil] = []
        for i, (name, zone) in enumerate(sorted(data["zones"].items())):
            coils += _placed(zone, placements.get(name), i * APART_MM)
        return coils
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"{path}: not a coil layout ({exc}); see field_schedule.py") from exc


def min_distance(coil: Coil) -> float:
    """How far (mm) another coil's centre must be from the tag over ``coil``."""
    return float(PAUSE_RESIDUE ** (-1 / 3) * math.hypot(coil.radius, coil.tag_mm))


def conflict(a: Coil, b: Coil) -> bool:
    """Would a's field fill b's pauses at b's tag, or b's a's?"""
    for own, other in ((a, b), (b, a)):
        if math.dist(own.tag, other.centre) < min_distance(own):
            return True
    return False


def schedule(coils: Sequence[Coil]) -> list[list[int]]:
    """Groups of channels of one board whose fields may be on together (greedy colouring)."""
    groups: list[list[Coil]] = []
    for coil in sorted(coils, key=lambda c: c.channel):
        for group in groups:
            if not any(conflict(coil, other) for other in group):
                group.append(coil)
                break
        else:
            groups.append([coil])
    return [[c.channel for c in g] for g in groups]


def schedules(coils: Iterable[Coil]) -> dict[str, list[list[int]]]:
    """Board -> its groups."""
    boards: dict[str, list[Coil]] = {}
    for coil in coils:
        boards.setdefault(coil.board, []).append(coil)
    return {board: schedule(cs) for board, cs in sorted(boards.items())}


def firmware_source(groups: dict[str, list[list[int]]], source: str) -> str:
    """The firmware's fw_layout.py for these groups."""
    lines = ["# Generated by `python -m firmware_bridge.field_schedule --write` from " + source,
             "# (hardware_docs/timing.md, \"Field schedule\"); do not edit by hand.", "",
             "GROUPS = {"]
    lines += [f"    {board!r}: {g!r}," for board, g in groups.items()]
    return "\n".join(lines + ["}", ""])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m firmware_bridge.field_schedule")
    p.add_argument("--layout", type=Path, default=REPO_LAYOUT,
                   help="coil layout JSON (default: hardware_docs/boards/layout.json)")
    p.add_argument("--write", action="store_true", help="write firmware/fw_layout.py")
    args = p.parse_args(argv)
    coils = load_layout(args.layout)
    source = str(args.layout.relative_to(REPO_LAYOUT.parent.parent.parent)
                 if args.layout.is_relative_to(REPO_LAYOUT.parent.parent.parent) else args.layout)
    groups = schedules(coils)
    if args.write:
        FIRMWARE_LAYOUT.write_text(firmware_source(groups, source))
    for board, g in groups.items():
        print(f"{board}: {len(g)} groups: {g}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
