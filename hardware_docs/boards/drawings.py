"""Mechanical drawings (SVG, 1 unit = 1 mm) from layout.json and the generated boards: each
board's top view (outline, coils, detent ribs, mounting holes, reader headers, dimensioned),
the seat board's, and the seat's cross-section (table top, pockets, rack body, lean face, tile,
cable slot, seat board). plans.py draws the plans (where the boards and cables go).

Every figure a builder cuts or drills to is also in the SVG as data (``class="dim"``,
``data-mm``; holes, headers and coils with ``data-x``/``data-y`` in the board's KiCad frame:
mm from the upper-left corner, y down), so tests/hardware/test_drawings.py compares them with
layout.json and with the boards as KiCad's pcbnew reads them.
"""

from __future__ import annotations

import os
from typing import Any

from kicad_sexpr import Board
from mechanics import meld_pocket_mm, rack_heights, to_frame

S = 2.0   # px per mm in the SVG's default view
THIN = "stroke:#000;stroke-width:0.25"


def svg(w: float, h: float, body: list[str], title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w * S:.0f}" height="{h * S:.0f}" '
            f'viewBox="0 0 {w:.1f} {h:.1f}" font-family="sans-serif" font-size="3">\n'
            f'<rect x="0" y="0" width="{w:.1f}" height="{h:.1f}" style="fill:#fff"/>\n'
            f"<title>{title}</title>\n" + "\n".join(body) + "\n</svg>\n")


def rect(x: float, y: float, w: float, h: float, style: str, extra: str = "") -> str:
    return (f'<rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" '
            f'style="{style}"{extra}/>')


def text(x: float, y: float, s: str, size: float = 3.0, anchor: str = "start") -> str:
    return (f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size}" text-anchor="{anchor}">'
            f"{s}</text>")


def line(x1: float, y1: float, x2: float, y2: float, style: str = THIN) -> str:
    return f'<line x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" style="{style}"/>'


def dim(name: str, mm: float, a: tuple[float, float], b: tuple[float, float],
        label: str | None = None, size: float = 2.6) -> str:
    """A dimension line from a to b (drawing units) labelled with ``mm``, and its data."""
    (x1, y1), (x2, y2) = a, b
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    tick = "stroke:#06c;stroke-width:0.25"
    return (f'<g class="dim" data-dim="{name}" data-mm="{mm:.2f}">'
            + line(x1, y1, x2, y2, tick)
            + f'<circle cx="{x1:.2f}" cy="{y1:.2f}" r="0.5" style="fill:#06c"/>'
            + f'<circle cx="{x2:.2f}" cy="{y2:.2f}" r="0.5" style="fill:#06c"/>'
            + text(mx + 1, my - 1, f"{mm:g}" if label is None else label, size) + "</g>")


def _holes_headers(board: Board, ox: float, oy: float) -> list[str]:
    out = []
    for fp in board.footprints:
        if fp.ref.startswith("H"):
            d = fp.pads[0].w
            out.append(f'<circle class="hole" data-ref="{fp.ref}" data-x="{fp.x:.2f}" '
                       f'data-y="{fp.y:.2f}" data-d="{d:g}" cx="{ox + fp.x:.2f}" '
                       f'cy="{oy + fp.y:.2f}" r="{d / 2:.2f}" style="fill:#fff;{THIN}"/>')
        elif fp.ref.startswith("J") and len(fp.pads) == 8:
            xs = [p.x for p in fp.pads]
            ys = [p.y for p in fp.pads]
            x0, x1 = min(xs) - 1.27, max(xs) + 1.27
            y0, y1 = min(ys) - 1.27, max(ys) + 1.27
            out.append(rect(ox + fp.x + x0, oy + fp.y + y0, x1 - x0, y1 - y0,
                            "fill:#333;stroke:none",
                            f' class="header" data-ref="{fp.ref}" data-x="{fp.x:.2f}" '
                            f'data-y="{fp.y:.2f}"'))
            pin1 = fp.pads[0]
            out.append(f'<circle cx="{ox + fp.x + pin1.x:.2f}" cy="{oy + fp.y + pin1.y:.2f}" '
                       f'r="0.6" style="fill:#f60"/>')
    return out


def board_drawing(name: str, zone: dict[str, Any], layout: dict[str, Any], board: Board) -> str:
    """A coil board's top view in its KiCad frame (y down), dimensioned."""
    w, h = board.width, board.height
    m = 24.0
    body = [rect(m, m, w, h, "fill:#e8f4e8;stroke:#000;stroke-width:0.4",
                 f' class="outline" data-w="{w:.2f}" data-h="{h:.2f}"')]
    tile = layout["tile"]
    rib = layout["slot_detent"]["rib_width_mm"]
    for c in zone["coils"]:
        cx, cy = c["centre_mm"][0], h - c["centre_mm"][1]
        body.append(rect(m + cx - c["outer_x_mm"] / 2, m + cy - c["outer_y_mm"] / 2,
                         c["outer_x_mm"], c["outer_y_mm"], "fill:none;stroke:#b35900;"
                         "stroke-width:0.5", f' class="coil" data-ch="{c["channel"]}" '
                         f'data-x="{cx:.2f}" data-y="{cy:.2f}"'))
        tw, th = (tile["width_mm"], tile["height_mm"]) if zone.get("slot_pitch_mm") else (
            2 * tile["width_mm"] + 1, tile["height_mm"])
        body.append(rect(m + cx - tw / 2, m + cy - th / 2, tw, th,
                         "fill:none;stroke:#555;stroke-dasharray:1,1;stroke-width:0.25"))
        body.append(text(m + cx, m + cy + 1, f"ch {c['channel']}", 2.5, "middle"))
    pitch = zone.get("slot_pitch_mm")
    c0 = zone["coils"][0]
    x0, y0 = c0["centre_mm"][0], h - c0["centre_mm"][1]
    if pitch:
        xs = sorted({c["centre_mm"][0] for c in zone["coils"]})
        # ribs up the lean face for a standing tile's height, 30 mm along a lying tile
        rib_len = tile["height_mm"] if name == "rack" else 30.0
        for x in [xs[0] - pitch / 2] + [v + pitch / 2 for v in xs]:
            for yc in sorted({h - c["centre_mm"][1] for c in zone["coils"]}):
                body.append(rect(m + x - rib / 2, m + yc - rib_len / 2, rib, rib_len,
                                 "fill:#999;stroke:none"))
        body.append(dim("pitch", pitch, (m + xs[0], m - 4), (m + xs[0] + pitch, m - 4)))
    body += _holes_headers(board, m, m)
    body += [
        dim("width", w, (m, m + h + 8), (m + w, m + h + 8), f"{w:g} mm"),
        dim("height", h, (m - 8, m), (m - 8, m + h), f"{h:g}"),
        dim("first_coil_x", x0, (m, m + y0), (m + x0, m + y0)),
        dim("coil_centre_from_top", y0, (m + x0 + 3, m), (m + x0 + 3, m + y0)),
    ]
    hdr = next((fp for fp in board.footprints if fp.ref == "J1"), None)
    if hdr is not None:
        body.append(dim("header_row_y", hdr.y, (m + hdr.x + 12, m), (m + hdr.x + 12, m + hdr.y)))
    notes = [f"{name} board, top view (parts side), mm; origin upper left (KiCad's frame)",
             f"coils (orange) {c0['outer_x_mm']:g} x {c0['outer_y_mm']:g} mm outer, "
             f"{c0['turns']} turns, {c0['trace_mm']:g} mm trace / {c0['space_mm']:g} mm "
             f"space; tile outline dashed; detent ribs grey ({rib:g} mm, on the "
             f"{layout['cover_mm']:g} mm cover sheet); reader headers black, pin 1 orange",
             f"tag to coil: {zone['tag_to_coil_mm']['nominal']:g} mm nominal, "
             f"{zone['tag_to_coil_mm']['worst']:g} mm worst; mounting holes "
             + ", ".join(f"{fp.ref} ({fp.x:g}, {fp.y:g})" for fp in board.footprints
                         if fp.ref.startswith("H")) + f", {board.footprints[-1].pads[0].w:g} mm"]
    body += [text(m, m + h + 16 + 5 * i, s, 2.6) for i, s in enumerate(notes)]
    return svg(max(w + 2 * m, 330.0), h + 2 * m + 16, body, f"{name} board, top view (mm)")


def seat_board_drawing(board: Board) -> str:
    """The seat board's top view: outline, holes, the reader headers J100-J133, J1, J2."""
    w, h = board.width, board.height
    m = 20.0
    body = [rect(m, m, w, h, "fill:#e8eef8;stroke:#000;stroke-width:0.4",
                 f' class="outline" data-w="{w:.2f}" data-h="{h:.2f}"')]
    body += _holes_headers(board, m, m)
    for fp in board.footprints:
        if fp.ref.startswith("J1") and len(fp.pads) == 8:
            body.append(text(m + fp.x, m + fp.y + 7, fp.ref[1:], 1.6, "middle"))
        if fp.ref in ("U1", "J1", "J2"):
            label = {"U1": "Pico (USB at this edge)", "J1": "J1 LED/buzzer",
                     "J2": "J2 3.3 V in"}[fp.ref]
            body.append(text(m + fp.x, m + fp.y, label, 2.2, "middle"))
    j100 = next(fp for fp in board.footprints if fp.ref == "J100")
    body += [dim("width", w, (m, m + h + 6), (m + w, m + h + 6), f"{w:g} mm"),
             dim("height", h, (m - 6, m), (m - 6, m + h), f"{h:g}"),
             dim("header_row_y", j100.y, (m + j100.x - 4, m), (m + j100.x - 4, m + j100.y)),
             dim("first_header_x", j100.x, (m, m + j100.y + 9), (m + j100.x, m + j100.y + 9)),
             text(m, m + h + 14, "seat board, top view (parts side), mm: reader headers "
                  "J100 + channel (numbers), pin 1 orange; M3 holes "
                  + ", ".join(f"{fp.ref} ({fp.x:g}, {fp.y:g})" for fp in board.footprints
                              if fp.ref.startswith("H")), 2.6)]
    return svg(w + 2 * m, h + 2 * m + 10, body, "seat board, top view (mm)")


def seat_section(layout: dict[str, Any]) -> str:
    """The seat cut across at a slot: table top, cable slot, rack body with its hollow and
    plinth, lean face, board, cover, tile; the meld strip in its pocket; the seat board."""
    from section import section_body
    return svg(200.0, 172.0, section_body(layout, rack_heights(layout), meld_pocket_mm(layout),
                                          to_frame),
               "seat cross-section (mm), player on the left")


def write_drawings(layout: dict[str, Any], out_root: str, boards: dict[str, Board]) -> None:
    from plans import centre_plan, seat_plan, table_plan
    folder = os.path.join(out_root, "drawings")
    os.makedirs(folder, exist_ok=True)
    files = {f"{name}_top.svg": board_drawing(name, zone, layout, boards[name])
             for name, zone in layout["zones"].items()}
    files["seat_top.svg"] = seat_board_drawing(boards["seat"])
    files["rack_section.svg"] = seat_section(layout)
    files["seat_plan.svg"] = seat_plan(layout, boards)
    files["centre_plan.svg"] = centre_plan(layout, boards)
    files["table_plan.svg"] = table_plan(layout, boards)
    from section import jig_drawing
    files["jig.svg"] = svg(330.0, 80.0, jig_drawing(layout), "test jig carriage (mm)")
    for fname, content in files.items():
        with open(os.path.join(folder, fname), "w", encoding="utf-8") as fh:
            fh.write(content)
