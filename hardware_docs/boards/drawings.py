"""Mechanical drawings (SVG, mm) from layout.json: each board's top view with its coils, the
cover sheet's detent ribs and the slots, and the rack's cross-section (lean face, ledge, tile,
board, cover)."""

from __future__ import annotations

import math
import os
from typing import Any

S = 2.0   # px per mm in the SVG's default view (the viewBox is in mm)


def _svg(w: float, h: float, body: list[str], title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w * S:.0f}" height="{h * S:.0f}" '
            f'viewBox="0 0 {w:.1f} {h:.1f}" font-family="sans-serif" font-size="3">\n'
            f"<title>{title}</title>\n" + "\n".join(body) + "\n</svg>\n")


def _rect(x: float, y: float, w: float, h: float, style: str) -> str:
    return f'<rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" style="{style}"/>'


def _text(x: float, y: float, s: str, size: float = 3.0) -> str:
    return f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size}">{s}</text>'


def _line(x1: float, y1: float, x2: float, y2: float, style: str = "stroke:#000;stroke-width:0.3"
          ) -> str:
    return f'<line x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" style="{style}"/>'


def board_drawing(name: str, zone: dict[str, Any], layout: dict[str, Any]) -> str:
    w, h = zone["board_mm"]
    m = 20.0
    body = [_rect(m, m, w, h, "fill:#e8f4e8;stroke:#000;stroke-width:0.4")]
    tile = layout["tile"]
    rib = layout["slot_detent"]["rib_width_mm"]
    for c in zone["coils"]:
        cx, cy = c["centre_mm"]
        x, y = m + cx - c["outer_x_mm"] / 2, m + h - cy - c["outer_y_mm"] / 2
        body.append(_rect(x, y, c["outer_x_mm"], c["outer_y_mm"],
                          "fill:none;stroke:#b35900;stroke-width:0.5"))
        tw, th = (tile["width_mm"], tile["height_mm"]) if zone.get("slot_pitch_mm") else (
            2 * tile["width_mm"] + 1, tile["height_mm"])
        body.append(_rect(m + cx - tw / 2, m + h - cy - th / 2, tw, th,
                          "fill:none;stroke:#555;stroke-dasharray:1,1;stroke-width:0.25"))
        body.append(_text(m + cx - 4, m + h - cy, f"ch {c['channel']}", 2.5))
    pitch = zone.get("slot_pitch_mm")
    if pitch:
        xs = sorted({c["centre_mm"][0] for c in zone["coils"]})
        for x in [xs[0] - pitch / 2] + [v + pitch / 2 for v in xs]:
            body.append(_rect(m + x - rib / 2, m, rib, h, "fill:#999;stroke:none"))
        body.append(_line(m + xs[0], m + h + 8, m + xs[0] + pitch, m + h + 8))
        body.append(_text(m + xs[0], m + h + 13, f"slot pitch {pitch:g} mm, rib {rib:g} mm "
                          f"(detent ribs on the {layout['cover_mm']:g} mm cover sheet)"))
    c0 = zone["coils"][0]
    body += [
        _line(m, m - 6, m + w, m - 6), _text(m + w / 2 - 10, m - 8, f"{w:g} mm"),
        _line(m - 6, m, m - 6, m + h), _text(m - 18, m + h / 2, f"{h:g} mm"),
        _text(m, m + h + 20, f"{name}: coils {c0['outer_x_mm']:g} x {c0['outer_y_mm']:g} mm "
              f"outer, {c0['turns']} turns, {c0['trace_mm']:g} mm trace / {c0['space_mm']:g} mm "
              f"space (orange); tile outline dashed; network band beside each coil"),
        _text(m, m + h + 26, f"tag to coil: {zone['tag_to_coil_mm']['nominal']:g} mm nominal, "
              f"{zone['tag_to_coil_mm']['worst']:g} mm worst ({zone['tag_to_coil_mm']['why']})"),
    ]
    return _svg(max(w + 2 * m, 300.0), h + 2 * m + 16, body, f"{name} board, top view (mm)")


def rack_section(layout: dict[str, Any]) -> str:
    """The rack seen from its end: ledge, lean face at the lean angle, tile, board, cover."""
    rack = layout["zones"]["rack"]
    pose = layout["placement_in_seat_frame"]["rack"]
    tile = layout["tile"]
    up = pose["board_y_axis"]
    lean = math.degrees(math.atan2(up[1], up[2]))
    ox, oz = pose["origin_mm"][1], pose["origin_mm"][2]
    m, w, h = 10.0, 150.0, 135.0

    def p(y: float, z: float) -> tuple[float, float]:
        return (m + y, h - m - z)
    n = pose["coil_normal_towards_tag"]
    bw, bh = rack["board_mm"][1], 1.6
    b0, b1 = p(ox, oz), p(ox + up[1] * bw, oz + up[2] * bw)
    foot = rack["tile_foot_board_y_mm"]
    cover = layout["cover_mm"]
    fy = ox + up[1] * foot + n[1] * cover
    fz = oz + up[2] * foot + n[2] * cover
    t = tile["thickness_mm"]
    corners = [(fy, fz), (fy + up[1] * tile["height_mm"], fz + up[2] * tile["height_mm"])]
    corners += [(corners[1][0] + n[1] * t, corners[1][1] + n[2] * t),
                (fy + n[1] * t, fz + n[2] * t)]
    tile_pts = " ".join(f"{p(a, b)[0]:.2f},{p(a, b)[1]:.2f}" for a, b in corners)
    ty, tz = fy + up[1] * tile["height_mm"] / 2, fz + up[2] * tile["height_mm"] / 2
    back = ox + up[1] * bw + 12.0
    top = (fy + up[1] * (bw - foot), fz + up[2] * (bw - foot))
    front = (fy + n[1] * (t + 4.0), fz + n[2] * (t + 4.0))     # the ledge, square to the face
    rack_pts = [(front[0], 0.0), front, (fy, fz), top, (back, top[1]), (back, 0.0)]
    body_pts = " ".join(f"{p(a, b)[0]:.2f},{p(a, b)[1]:.2f}" for a, b in rack_pts)
    body = [
        f'<polygon points="{body_pts}" style="fill:#f0e6d8;stroke:#7a5a3a;stroke-width:0.3"/>',
        _line(*p(0, 0), *p(130, 0), "stroke:#000;stroke-width:0.5"),
        _line(*b0, *b1, f"stroke:#2a7a2a;stroke-width:{bh}"),
        _line(*p(ox + n[1] * cover, oz + n[2] * cover),
              *p(ox + up[1] * bw + n[1] * cover, oz + up[2] * bw + n[2] * cover),
              f"stroke:#aaa;stroke-width:{cover}"),
        f'<polygon points="{tile_pts}" style="fill:#fff8e0;stroke:#000;stroke-width:0.3"/>',
        f'<circle cx="{p(ty, tz)[0]:.2f}" cy="{p(ty, tz)[1]:.2f}" r="0.8" style="fill:#c00"/>',
    ]
    body += _section_labels(p, ox, oz, fz, foot, lean, cover, tile["height_mm"])
    return _svg(w, h, body, "rack cross-section (mm), player on the left")


def _section_labels(p: Any, ox: float, oz: float, fz: float, foot: float, lean: float,
                    cover: float, tile_h: float) -> list[str]:
    return [
        _text(*p(2, -6), f"table top; the ledge carries the tile {fz:.1f} mm above it; "
              "player on the left, table centre on the right", 2.6),
        _text(*p(ox + 22, oz + 60), f"coil board (green), lean {lean:.0f} deg from vertical", 2.6),
        _text(*p(ox + 22, oz + 55), f"{cover:g} mm cover with detent ribs (grey)", 2.6),
        _text(*p(ox + 22, oz + 50), "rack body (brown): readers and network band below", 2.6),
        _text(*p(2, fz + 52), "tile 34 x 25 x 19 mm standing, sticker (red) on its back", 2.6),
        _text(*p(2, fz + 47), f"tag centre at board y {foot + tile_h / 2:g} mm = "
              "the coil centre", 2.6),
    ]


def write_drawings(layout: dict[str, Any], out_root: str) -> None:
    folder = os.path.join(out_root, "drawings")
    os.makedirs(folder, exist_ok=True)
    for name, zone in layout["zones"].items():
        with open(os.path.join(folder, f"{name}_top.svg"), "w", encoding="utf-8") as fh:
            fh.write(board_drawing(name, zone, layout))
    with open(os.path.join(folder, "rack_section.svg"), "w", encoding="utf-8") as fh:
        fh.write(rack_section(layout))
