"""The reader chip's land pattern on every coil board is KiCad's HVQFN-32 (SOT617-1) footprint:
the numbers below are typed from KiCad's library footprint
Package_DFN_QFN:HVQFN-32-1EP_5x5mm_P0.5mm_EP3.1x3.1mm (its description cites NXP's SOT617-1
drawing), independently of hardware_docs/boards/reader.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

BOARDS = Path(__file__).resolve().parents[2] / "hardware_docs" / "boards"
LAND_CENTRE, LAND_LONG, LAND_SHORT, PITCH = 2.4375, 0.875, 0.25, 0.5
EP, PASTE, PASTE_PITCH = 3.1, 0.83, 1.03


def _chip_pads(name: str) -> list[tuple[str, float, float, float, float, str]]:
    text = (BOARDS / name / f"mjt_{name}.kicad_pcb").read_text()
    block = next(b for b in text.split("  (footprint ")[1:] if 'reference "U1"' in b)
    return [(n, float(x), float(y), float(w), float(h), layers) for n, x, y, w, h, layers in
            re.findall(r'\(pad "([^"]*)" smd \S+ \(at ([-\d.]+) ([-\d.]+)\) '
                       r'\(size ([\d.]+) ([\d.]+)\) \(layers ([^)]*)\)', block)]


@pytest.mark.parametrize("name", ["rack", "meld", "discard", "dora"])
def test_the_reader_land_pattern_is_kicads_hvqfn32(name: str) -> None:
    pads = _chip_pads(name)
    pins = {n: p for n, *p in pads if n.isdigit() and int(n) <= 32}
    assert len(pins) == 32
    offsets = {round(-1.75 + PITCH * k, 4) for k in range(8)}
    for n, (x, y, w, h, _layers) in pins.items():
        radial_x = abs(abs(x) - LAND_CENTRE) < 1e-3
        radial_y = abs(abs(y) - LAND_CENTRE) < 1e-3
        assert radial_x != radial_y, (name, n, x, y)
        along = round(y if radial_x else x, 4)
        assert along in offsets, (name, n, along)
        assert (w, h) == ((LAND_LONG, LAND_SHORT) if radial_x else (LAND_SHORT, LAND_LONG)), n
    (ep,) = [p for n, *p in pads if n == "33"]
    assert ep[:4] == [0.0, 0.0, EP, EP] and "Paste" not in ep[4]
    windows = sorted((round(x, 3), round(y, 3)) for n, x, y, w, h, layers in pads
                     if n == "" and layers.strip() == '"F.Paste"' and w == h == PASTE)
    grid = sorted((round(i * PASTE_PITCH, 3), round(j * PASTE_PITCH, 3))
                  for i in (-1, 0, 1) for j in (-1, 0, 1))
    assert windows == grid
