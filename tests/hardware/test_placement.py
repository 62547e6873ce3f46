"""The placement files (mjt_<board>_cpl.csv) an assembler places the parts by: each part's
library footprint, turned by the file's rotation and put at its position, must land on the
pads of the committed board. The library pads are typed here from KiCad's footprints
(KiCad/kicad-footprints: HVQFN-32-1EP_5x5mm_P0.5mm_EP3.1x3.1mm, SOT-23-5,
Crystal_SMD_3225-4Pin_3.2x2.5mm, SOIC-14_3.9x8.7mm_P1.27mm; SOIC-16 by the same generator),
independently of hardware_docs/boards/placement.py."""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

import pytest

BOARDS = Path(__file__).resolve().parents[2] / "hardware_docs" / "boards"
Pt = tuple[float, float]


def _qfn() -> dict[str, Pt]:
    pads = {}
    for k in range(8):
        off = -1.75 + 0.5 * k
        pads[str(1 + k)] = (-2.4375, off)          # left column, down
        pads[str(9 + k)] = (off, 2.4375)           # bottom row, right
        pads[str(17 + k)] = (2.4375, -off)         # right column, up
        pads[str(25 + k)] = (-off, -2.4375)        # top row, left
    return pads


LIBRARY: dict[str, dict[str, Pt]] = {
    "HVQFN-32": _qfn(),
    "SOT-23-5": {"1": (-1.1375, -0.95), "2": (-1.1375, 0.0), "3": (-1.1375, 0.95),
                 "4": (1.1375, 0.95), "5": (1.1375, -0.95)},
    "Crystal_SMD_3225": {"1": (-1.1, 0.85), "2": (1.1, 0.85), "3": (1.1, -0.85),
                         "4": (-1.1, -0.85)},
    "SOIC-14": {**{str(1 + k): (-2.475, -3.81 + 1.27 * k) for k in range(7)},
                **{str(8 + k): (2.475, 3.81 - 1.27 * k) for k in range(7)}},
    "SOIC-16": {**{str(1 + k): (-2.475, -4.445 + 1.27 * k) for k in range(8)},
                **{str(9 + k): (2.475, 4.445 - 1.27 * k) for k in range(8)}},
}


def _turn(p: Pt, deg: float) -> Pt:
    """KiCad's rotation (counter-clockwise on screen) in its frame, y down."""
    a = math.radians(deg)
    return (p[0] * math.cos(a) + p[1] * math.sin(a), -p[0] * math.sin(a) + p[1] * math.cos(a))


def _board_pads(name: str) -> dict[str, dict[str, Pt]]:
    """reference -> {pad number: pad centre on the board}, read from the .kicad_pcb text."""
    text = (BOARDS / name / f"mjt_{name}.kicad_pcb").read_text()
    out: dict[str, dict[str, Pt]] = {}
    for block in text.split("  (footprint ")[1:]:
        at = re.search(r"^\S+ \(layer \S+\)[^\n]*\n\s*\(at ([-\d.]+) ([-\d.]+)( [-\d.]+)?\)",
                       block)
        ref = re.search(r'fp_text reference "([^"]+)"', block)
        assert at and ref and not at.group(3), block[:80]     # footprints are never turned
        x0, y0 = float(at.group(1)), float(at.group(2))
        out[ref.group(1)] = {n: (x0 + float(x), y0 + float(y)) for n, x, y in re.findall(
            r'\(pad "(\d+)" \S+ \S+ \(at ([-\d.]+) ([-\d.]+)\)', block)}
    return out


def misplaced(name: str, rows: list[dict[str, str]], tol: float = 0.1) -> list[str]:
    pads = _board_pads(name)
    bad = []
    for row in rows:
        ours = pads[row["Ref"]]
        at = (float(row["PosX"]), -float(row["PosY"]))
        lib = next((v for k, v in LIBRARY.items() if row["Package"].startswith(k)), None)
        if lib is None:          # a 2-pad chip: pad 1 on the library's left, turned
            d = _turn((-1.0, 0.0), float(row["Rot"]))
            p1 = (ours["1"][0] - at[0], ours["1"][1] - at[1])
            if d[0] * p1[0] + d[1] * p1[1] <= 0 or abs(d[0] * p1[1] - d[1] * p1[0]) > tol:
                bad.append(f"{row['Ref']} pad 1 {p1} not along {d}")
            continue
        for num, p in lib.items():
            q = _turn(p, float(row["Rot"]))
            want = (at[0] + q[0], at[1] + q[1])
            if math.dist(want, ours[num]) > tol:
                bad.append(f"{row['Ref']} pad {num}: library {want} board {ours[num]}")
    return bad


def _rows(name: str) -> list[dict[str, str]]:
    with (BOARDS / name / f"mjt_{name}_cpl.csv").open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.mark.parametrize("name", ["rack", "meld", "discard", "dora", "seat"])
def test_every_placed_part_lands_on_its_pads(name: str) -> None:
    rows = _rows(name)
    assert rows and {r["Ref"] for r in rows} <= set(_board_pads(name))
    assert misplaced(name, rows) == []
    kinds = {r["Package"].split("_")[0] for r in rows}
    assert kinds >= ({"HVQFN-32-1EP", "SOT-23-5", "Crystal"} if name != "seat" else {"SOIC-16"})


def test_a_part_turned_a_quarter_is_caught() -> None:
    rows = _rows("discard")
    chip = next(r for r in rows if r["Package"].startswith("HVQFN"))
    chip["Rot"] = str((int(chip["Rot"]) + 90) % 360)
    assert misplaced("discard", rows) != []
