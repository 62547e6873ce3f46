"""The placement file (CPL) an assembler needs: every SMD part's centre and its rotation from
the library footprint's orientation. The generator draws each footprint's pads already turned
(the reader chip 180 deg, the MISO gate 90 deg, many passives upright), with the footprint
itself at 0 deg, so KiCad's own position export would give 0 deg everywhere and an assembler
would place those parts turned wrong. Here the rotation is worked out from the pads: the
angle of pad 1 seen from the pads' centre, against the same angle in the library footprint
(KiCad's, IPC-7351 zero orientation: pin 1 upper left, 2-pad chips with pad 1 left).

Columns as KiCad's CSV position file (Ref, Val, Package, PosX, PosY, Rot, Side; mm, y up,
rotation counter-clockwise); through-hole parts (headers, the Pico, the terminal block) are
soldered by hand and left out, as KiCad's "SMD only" export leaves them.
"""

from __future__ import annotations

import csv
import math

from kicad_sexpr import Board, Footprint

# Library pad 1 and pad 2 (KiCad's footprints, KiCad/kicad-footprints: HVQFN-32-1EP_5x5mm_
# P0.5mm_EP3.1x3.1mm, SOT-23-5, Crystal_SMD_3225-4Pin_3.2x2.5mm, SOIC-14_3.9x8.7mm_P1.27mm;
# SOIC-16 by the same generator; the chip resistors' and capacitors' pad 1 at -x) and the
# centre of all their numbered pads.
LIBRARY: dict[str, tuple[tuple[float, float], tuple[float, float], tuple[float, float]]] = {
    "HVQFN-32": ((-2.4375, -1.75), (-2.4375, -1.25), (0.0, 0.0)),
    "SOT-23-5": ((-1.1375, -0.95), (-1.1375, 0.0), (-0.2275, 0.0)),
    "Crystal_SMD_3225": ((-1.1, 0.85), (1.1, 0.85), (0.0, 0.0)),
    "SOIC-14": ((-2.475, -3.81), (-2.475, -2.54), (0.0, 0.0)),
    "SOIC-16": ((-2.475, -4.445), (-2.475, -3.175), (0.0, 0.0)),
    "chip": ((-1.0, 0.0), (1.0, 0.0), (0.0, 0.0)),
}
CHIPS = ("R_0603", "C_0603", "R_0805", "C_0805", "L_0805", "R_1206", "C_1206", "C_1210")


def _kind(fp: Footprint) -> str | None:
    name = fp.lib.split(":")[-1]
    if any(name.startswith(c) for c in CHIPS):
        return "chip"
    return next((k for k in LIBRARY if name.startswith(k)), None)


def _angle(v: tuple[float, float]) -> float:
    """The direction of v (KiCad frame, y down) as an angle counter-clockwise on screen."""
    return math.degrees(math.atan2(-v[1], v[0]))


def rotation(fp: Footprint) -> int:
    """How far the part is turned from its library footprint, degrees counter-clockwise."""
    kind = _kind(fp)
    if kind is None:
        raise ValueError(f"{fp.ref}: no library orientation known for {fp.lib}")
    p1, _p2, centre = LIBRARY[kind]
    pads = {p.number: (p.x, p.y) for p in fp.pads if p.number.isdigit()}
    cx = sum(x for x, _ in pads.values()) / len(pads)
    cy = sum(y for _, y in pads.values()) / len(pads)
    ours = _angle((pads["1"][0] - cx, pads["1"][1] - cy))
    lib = _angle((p1[0] - centre[0], p1[1] - centre[1]))
    return round((ours - lib) / 90.0) % 4 * 90


def rows(board: Board) -> list[list[str]]:
    out = []
    for fp in board.footprints:
        if fp.attr != "smd" or _kind(fp) is None:
            continue
        out.append([fp.ref, fp.value, fp.lib.split(":")[-1], f"{fp.x:.4f}", f"{-fp.y:.4f}",
                    f"{rotation(fp)}", "top"])
    return out


def write_cpl(board: Board, path: str) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["Ref", "Val", "Package", "PosX", "PosY", "Rot", "Side"])
        w.writerows(rows(board))
