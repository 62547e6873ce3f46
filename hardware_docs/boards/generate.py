"""Generate the coil boards from layout.json: KiCad projects, BOM, design values, drawings.

    python3 hardware_docs/boards/generate.py            # writes hardware_docs/boards/<board>/
    /usr/bin/python3 hardware_docs/boards/kicad_check.py  # then DRC + Gerbers with KiCad's pcbnew

Everything here is computed from layout.json and the models in coil.py; README.md explains
the design and cites the sources of the formulas.
"""

from __future__ import annotations

import csv
import json
import math
import os
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import coil as cm  # noqa: E402
import seat  # noqa: E402
from cell import BUS_V, Mapper, Values, add_cell  # noqa: E402
from drawings import write_drawings  # noqa: E402
from kicad_sexpr import Board, Footprint, Pad, write_pcb, write_project  # noqa: E402
from mechanics import summary as mech_summary  # noqa: E402
from placement import write_cpl  # noqa: E402
from plans import headers_of  # noqa: E402
from reader import Values as ReaderValues  # noqa: E402
from reader import add_reader  # noqa: E402
from schematic import write_schematic  # noqa: E402

Z_TARGET = 40.0     # ohm, TX1-TX2 at 13.56 MHz: design choice, see README.md "Matching"
Q_TARGET = 25.0     # loaded Q, README.md "Matching"
L0 = 560e-9         # EMC filter inductor
F_EMC = 14.4e6      # EMC filter cut-off
C_ANT = 3e-12       # assumed coil self-capacitance (the VNA measures the real one)
CL_XTAL = 10e-12    # crystal load capacitance: MFRC522 data sheet, crystal requirements (8.7)
C_STRAY = 2.5e-12   # board and pin capacitance per oscillator pin: assumption (README.md)


def fmt_c(v: float) -> str:
    return f"{v * 1e12:.0f}pF" if v < 1e-9 else f"{v * 1e9:.1f}nF"


def design_values(coil: dict[str, Any]) -> dict[str, Any]:
    """Model and matching of one coil; the parts rounded to stocked values."""
    c = cm.Coil(coil["outer_x_mm"], coil["outer_y_mm"], int(coil["turns"]), coil["trace_mm"],
                coil["space_mm"])
    ind = cm.inductance_nxp(c)
    res = cm.resistance_ac(c)
    mt = cm.solve_matching(ind, res, z_target=Z_TARGET, q=Q_TARGET, l0=L0, f_emc=F_EMC,
                           c_ant=C_ANT)
    c2_fixed = cm.e_series(mt.c2 * 0.93)
    c2_trim = mt.c2 - c2_fixed
    parts = {"L0": "560nH", "C0": fmt_c(cm.e_series(mt.c0)), "C1": fmt_c(cm.e_series(mt.c1)),
             "C2": fmt_c(c2_fixed),
             "C2_trim": fmt_c(cm.e_series(c2_trim)) if c2_trim > 0.5e-12 else "DNP",
             "Rq": f"{cm.e_series(mt.rq_half):.2g}R" if mt.rq_half > 0.05 else "0R",
             "Crx": "1nF", "R_rx": "1k"}
    used = {"c0": cm.e_series(mt.c0), "c1": cm.e_series(mt.c1),
            "c2": c2_fixed + (cm.e_series(c2_trim) if c2_trim > 0.5e-12 else 0.0)}
    z_rounded = cm.impedance_diff(L0, used["c0"], used["c1"], used["c2"],
                                  cm.OMEGA * ind / Q_TARGET, ind, C_ANT)
    return {
        "inductance_uH": round(ind * 1e6, 4),
        "inductance_current_sheet_uH": round(cm.inductance_current_sheet(c) * 1e6, 4),
        "trace_length_m": round(cm.trace_length(c), 4),
        "r_ac_ohm": round(res, 4), "q_unloaded": round(cm.OMEGA * ind / res, 1),
        "q_target": Q_TARGET, "z_target_ohm": Z_TARGET,
        "exact": {"C0_pF": round(mt.c0 * 1e12, 1), "C1_pF": round(mt.c1 * 1e12, 1),
                  "C2_pF": round(mt.c2 * 1e12, 1), "Rq_half_ohm": round(mt.rq_half, 2)},
        "parts": parts,
        "z_with_rounded_parts_ohm": [round(z_rounded.real, 1), round(z_rounded.imag, 1)],
    }


def field_figures(coil: dict[str, Any], zone: dict[str, Any], tag_mm: float) -> dict[str, Any]:
    c = cm.Coil(coil["outer_x_mm"], coil["outer_y_mm"], int(coil["turns"]), coil["trace_mm"],
                coil["space_mm"])
    d = zone["tag_to_coil_mm"]
    nominal = abs(cm.field_z(c, 0, 0, d["nominal"]))
    worst = abs(cm.field_z(c, 0, 0, d["worst"]))
    out = {"hz_per_ampere_nominal": round(nominal, 1), "hz_per_ampere_worst": round(worst, 1),
           "worst_over_nominal": round(worst / nominal, 3)}
    if zone.get("slot_pitch_mm"):
        prof = cm.coupling_profile(c, zone["slot_pitch_mm"], d["nominal"], tag_mm)
        out["neighbour_field_ratio"] = [round(v, 4) for v in prof[1:]]
        ind = cm.inductance_nxp(c)
        out["coupling_k_neighbours"] = [
            round(cm.mutual_inductance(c, n * zone["slot_pitch_mm"]) / ind, 4) for n in (1, 2, 3)]
    return out


READER = ReaderValues(c_load="", c_dec="100nF", c_bulk="10uF", c_vmid="100nF", r2="2.2k")


def reader_values() -> ReaderValues:
    c_load = cm.e_series(2 * (CL_XTAL - C_STRAY))
    return ReaderValues(fmt_c(c_load), READER.c_dec, READER.c_bulk, READER.c_vmid, READER.r2)


def build_board(name: str, zone: dict[str, Any], vals: Values) -> Board:
    w, h = zone["board_mm"]
    band = zone["reader_band_mm"]
    board = Board(name, w, h)
    flips = []
    rvals = reader_values()
    for i, coil in enumerate(zone["coils"]):
        cx, cy = coil["centre_mm"]
        flip = coil.get("network") == "above"
        near = cy + coil["outer_y_mm"] / 2 if flip else cy - coil["outer_y_mm"] / 2
        mapper = Mapper(cx, near, flip, h)
        add_cell(board, mapper, i + 1, coil, vals)
        add_reader(board, mapper, i + 1, rvals)
        flips.append((cx, flip))
    _buses(board, flips, w, h, band)
    _holes(board, name, zone, w, h)
    return board


def _buses(board: Board, cells: list[tuple[float, bool]], w: float, h: float,
           band: float) -> None:
    """The GND bus along the network bands and the reader band's GND pour (bottom layer)."""
    bus = BUS_V + band
    for flip in (False, True):
        xs = [cx for cx, fl in cells if fl == flip]
        if not xs:
            continue
        y = bus if flip else h - bus
        board.segments.append((min(xs) - 11, y, max(xs) + 11, y, 1.0, "B.Cu", "GND"))
        top, bottom = (0.0, bus + 0.6) if flip else (h - bus - 0.6, h)
        board.zones.append(("B.Cu", "GND", [(0.0, top), (w, top), (w, bottom), (0.0, bottom)]))
    if any(fl for _, fl in cells):
        x = w - 3.0
        right = max(cx for cx, _ in cells) + 11
        board.segments += [(right, h - bus, x, h - bus, 1.0, "B.Cu", "GND"),
                           (x, h - bus, x, bus, 1.0, "B.Cu", "GND"),
                           (x, bus, right, bus, 1.0, "B.Cu", "GND")]


def _holes(board: Board, name: str, zone: dict[str, Any], w: float, h: float) -> None:
    """M3 mounting holes clear of coils and the network bands (board frame, y down)."""
    if name in ("rack", "meld"):
        spots = [(4.0, 4.0), (w - 4.0, 4.0), (4.0, h - 12.0), (w - 4.0, h - 12.0)]
        pitch = zone["slot_pitch_mm"]
        for k in range(6, zone["slots"], 6):
            spots.append((8.0 + k * pitch, 4.0))
    elif name == "dora":
        spots = [(4.0, h / 2), (w / 2, h / 2)]
    else:
        spots = [(4.0, 4.0), (w - 4.0, 4.0), (4.0, h - 4.0), (w - 4.0, h - 4.0)]
    for i, (x, y) in enumerate(spots):
        board.footprints.append(Footprint(
            f"H{i + 1}", "MountingHole_3.2mm_M3", "MountingHole:MountingHole_3.2mm_M3", x, y,
            [Pad("", "np_thru_hole", 0, 0, 3.2, 3.2, drill=3.2, shape="circle",
                 layers='"*.Cu" "*.Mask"')], attr="exclude_from_pos_files exclude_from_bom"))


def bom_rows(board: Board) -> list[dict[str, str]]:
    groups: dict[tuple[str, str], list[str]] = {}
    for fp in board.footprints:
        if fp.ref.startswith("H") or fp.ref.startswith("L") and fp.lib.endswith("coil"):
            continue
        groups.setdefault((fp.value, fp.lib), []).append(fp.ref)
    return [{"value": v, "footprint": lib, "qty": str(len(refs)), "refs": " ".join(refs)}
            for (v, lib), refs in sorted(groups.items())]


def write_seat_board(out_root: str, boards: dict[str, Board] | None = None) -> dict[str, Any]:
    """The seat board (seat.py): placed, routed, written like the coil boards (and kept in
    ``boards`` for the drawings)."""
    import schematic
    schematic.MULTI.update(seat.symbol_pins())
    board, failed = seat.build_seat()
    if failed:
        raise RuntimeError(f"the seat board's router left nets unrouted: {failed}")
    if boards is not None:
        boards["seat"] = board
    folder = os.path.join(out_root, "seat")
    os.makedirs(folder, exist_ok=True)
    write_pcb(board, os.path.join(folder, "mjt_seat.kicad_pcb"))
    write_project(os.path.join(folder, "mjt_seat.kicad_pro"), 0.2, 0.2)
    write_schematic(board, os.path.join(folder, "mjt_seat.kicad_sch"), "seat")
    write_cpl(board, os.path.join(folder, "mjt_seat_cpl.csv"))
    rows = bom_rows(board)
    with open(os.path.join(folder, "mjt_seat_bom.csv"), "w", newline="", encoding="utf-8") as fh:
        wr = csv.DictWriter(fh, ["value", "footprint", "qty", "refs"])
        wr.writeheader()
        wr.writerows(rows)
    return {"board_mm": [board.width, board.height], "channels": seat.CHANNELS,
            "parts_per_board": {r["value"] + " " + r["footprint"].split(":")[-1]: int(r["qty"])
                                for r in rows},
            "nets": len(board.nets()), "vias": len(board.vias)}


def main(out_root: str = HERE) -> dict[str, Any]:
    layout = json.load(open(os.path.join(HERE, "layout.json"), encoding="utf-8"))
    tag = layout["sticker"]["diameter_mm"]
    summary: dict[str, Any] = {"source": "hardware_docs/boards/generate.py from layout.json",
                               "boards": {}}
    boards: dict[str, Board] = {}
    for name, zone in layout["zones"].items():
        coil = zone["coils"][0]
        design = design_values(coil)
        p = design["parts"]
        vals = Values(p["L0"], p["C0"], p["C1"], p["C2"], p["C2_trim"], p["Rq"], p["Crx"],
                      p["R_rx"])
        board = build_board(name, zone, vals)
        boards[name] = board
        folder = os.path.join(out_root, name)
        os.makedirs(folder, exist_ok=True)
        write_pcb(board, os.path.join(folder, f"mjt_{name}.kicad_pcb"))
        write_project(os.path.join(folder, f"mjt_{name}.kicad_pro"), 0.2, 0.2)
        write_schematic(board, os.path.join(folder, f"mjt_{name}.kicad_sch"), name)
        write_cpl(board, os.path.join(folder, f"mjt_{name}_cpl.csv"))
        rows = bom_rows(board)
        with open(os.path.join(folder, f"mjt_{name}_bom.csv"), "w", newline="",
                  encoding="utf-8") as fh:
            wr = csv.DictWriter(fh, ["value", "footprint", "qty", "refs"])
            wr.writeheader()
            wr.writerows(rows)
        summary["boards"][name] = {
            "board_mm": zone["board_mm"], "coils": len(zone["coils"]),
            "coil": {k: coil[k] for k in ("outer_x_mm", "outer_y_mm", "turns", "trace_mm",
                                          "space_mm")},
            "design": design, "field": field_figures(coil, zone, tag),
            "parts_per_board": {r["value"] + " " + r["footprint"].split(":")[-1]: int(r["qty"])
                                for r in rows},
            "nets": len(board.nets()),
            "reader": {"crystal_load_pF": CL_XTAL * 1e12, "stray_per_pin_pF": C_STRAY * 1e12,
                       "load_capacitors": reader_values().c_load,
                       "readers": sum(1 for fp in board.footprints
                                      if fp.value.startswith("MFRC522"))},
        }
    summary["seat"] = write_seat_board(out_root, boards)
    write_drawings(layout, out_root, boards)
    summary["mechanics"] = mech_summary(layout, *headers_of(boards))
    with open(os.path.join(out_root, "design.json"), "w", encoding="utf-8") as fh:
        json.dump(summary, fh, indent=1)
        fh.write("\n")
    return summary


if __name__ == "__main__":
    s = main(sys.argv[1] if len(sys.argv) > 1 else HERE)
    for name, b in s["boards"].items():
        d = b["design"]
        print(f"{name}: L={d['inductance_uH']} uH, parts {d['parts']}, field {b['field']}")
    _ = math.pi
