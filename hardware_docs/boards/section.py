"""The seat's cross-section (drawings.py, rack_section.svg): cut across the table at a slot,
player on the left. Seat frame (layout.json "frames"): y from the table edge, z up from the
table's surface; the drawing puts y to the right and z up."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

WALL = 6.0      # rack body wall in the drawing (a design choice: any rigid wall will do)
Z_TOP = 105.0   # z at the drawing's top edge
M = 12.0        # y = 0 at this x


def _p(y: float, z: float) -> tuple[float, float]:
    return (M + y, Z_TOP - z)


def _poly(points: list[tuple[float, float]], style: str) -> str:
    pts = " ".join(f"{_p(y, z)[0]:.2f},{_p(y, z)[1]:.2f}" for y, z in points)
    return f'<polygon points="{pts}" style="{style}"/>'


def _box(y0: float, z0: float, y1: float, z1: float, style: str) -> str:
    return _poly([(y0, z0), (y1, z0), (y1, z1), (y0, z1)], style)


def rack_front_y(layout: dict[str, Any]) -> float:
    """The rack body's front wall: the rack's headers with their plugs point at the player
    from the board's lower edge, so the hollow under the ledge reaches an allowance plus the
    wall in front of it."""
    mech = layout["mechanics"]
    pose = layout["placement_in_seat_frame"]["rack"]
    return round(pose["origin_mm"][1] - mech["connector_allowance_mm"] - 4.0 - WALL, 2)


def section_body(layout: dict[str, Any], heights: dict[str, float], pocket: float,
                 to_frame: Callable[..., tuple[float, float, float]]) -> list[str]:
    from drawings import line
    mech = layout["mechanics"]
    pose = layout["placement_in_seat_frame"]["rack"]
    rack = layout["zones"]["rack"]
    meld = layout["zones"]["meld"]
    mpose = layout["placement_in_seat_frame"]["meld"]
    t_top, cover, tb = mech["table_top_mm"], layout["cover_mm"], mech["board_thickness_mm"]
    s0, s1 = mech["cable_slot_y_mm"]
    rear = mech["rack_plinth_rear_y_mm"]
    hollow = mech["hollow_height_mm"]
    m0, m1 = mpose["origin_mm"][1], mpose["origin_mm"][1] + meld["board_mm"][1]
    front = rack_front_y(layout)
    up, n = pose["board_y_axis"], pose["coil_normal_towards_tag"]
    b0 = to_frame(pose, 0.0, 0.0)
    b1 = to_frame(pose, 0.0, rack["board_mm"][1])
    ledge = heights["ledge_z_mm"]
    wood = "fill:#f0e6d8;stroke:#7a5a3a;stroke-width:0.3"
    body = [
        _box(-8.0, 0.0, s0, -t_top, wood), _box(s1, 0.0, 185.0, -t_top, wood),
        _box(m0, 0.0, m1, -pocket, "fill:#fff;stroke:#7a5a3a;stroke-width:0.3"),
        _box(m0, -pocket, m1, -pocket + tb, "fill:#2a7a2a;stroke:none"),
        _box(rear, -cover, m1, 0.0, "fill:#bbb;stroke:none"),
    ]
    # the rack body: front wall, ledge, lean face, top, back, plinth over the meld bands
    foot_y = b0[1] + up[1] * rack["tile_foot_board_y_mm"] + n[1] * cover
    top_y = b1[1] + n[1] * cover
    back_y = b1[1] + 14.0
    t = layout["tile"]["thickness_mm"]
    lip = (foot_y + n[1] * (t + 2.0), ledge + n[2] * (t + 2.0))   # the ledge, square to the face
    slope = up[1] / up[2]
    low = ledge - WALL - 6.0
    body.append(_poly([(front, 0.0), (front, low), lip, (foot_y, ledge), (top_y, b1[2] + 2),
                       (back_y, b1[2] + 2), (back_y, hollow), (rear, hollow), (rear, 0.0)],
                      wood))
    white = "fill:#fff;stroke:#7a5a3a;stroke-width:0.3"
    body.append(_poly([(front + WALL, 0.0), (front + WALL, low - WALL),
                       (b0[1] + (low - WALL) * slope - 1.0, low - WALL), (b0[1] - 1.0, 0.0)],
                      white))
    body.append(_poly([(b0[1] + 2.5, 0.0), (b0[1] + (hollow - WALL) * slope + 2.5, hollow - WALL),
                       (rear - WALL, hollow - WALL), (rear - WALL, 0.0)], white))
    a = mech["connector_allowance_mm"]
    hdr = to_frame(pose, 0.0, 3.0)
    plug = "stroke:#333;stroke-width:2.5"
    body.append(line(*_p(hdr[1], hdr[2]), *_p(hdr[1] + n[1] * a, hdr[2] + n[2] * a), plug))
    body.append(line(*_p(m0 + 3.0, -cover), *_p(m0 + 3.0, -cover + a), plug))
    body.append(line(*_p(b0[1], b0[2]), *_p(b1[1], b1[2]), f"stroke:#2a7a2a;stroke-width:{tb}"))
    body.append(line(*_p(b0[1] + n[1] * (cover / 2 + tb / 2), ledge),
                     *_p(b1[1] + n[1] * cover, b1[2] + n[2] * cover),
                     f"stroke:#aaa;stroke-width:{cover}"))
    body += _tiles(layout, foot_y, ledge, up, n, mpose)
    body += _seat_board(layout, t_top, tb)
    body += _dims(layout, heights, pocket, (b0, b1), (front, back_y))
    return body


def _dims(layout: dict[str, Any], heights: dict[str, float], pocket: float,
          board: tuple[tuple[float, float, float], tuple[float, float, float]],
          body_y: tuple[float, float]) -> list[str]:
    """The section's dimensions (each also as data: drawings.dim) and its legend."""
    from drawings import dim, text
    mech = layout["mechanics"]
    t_top = mech["table_top_mm"]
    s0, s1 = mech["cable_slot_y_mm"]
    rear, hollow = mech["rack_plinth_rear_y_mm"], mech["hollow_height_mm"]
    mpose = layout["placement_in_seat_frame"]["meld"]
    m1 = mpose["origin_mm"][1] + layout["zones"]["meld"]["board_mm"][1]
    b0, b1 = board
    front, back_y = body_y
    ledge = heights["ledge_z_mm"]
    return [
        dim("ledge_z", ledge, _p(front - 4, 0), _p(front - 4, ledge), f"ledge {ledge:g}"),
        dim("board_lower_edge_z", b0[2], _p(b0[1] + 1, 0), _p(b0[1] + 1, b0[2]), ""),
        text(*_p(b0[1] + 2, -5), f"board edge {b0[2]:.1f} up", 2.2),
        dim("board_lower_edge_y", b0[1], _p(0, -t_top - 3), _p(b0[1], -t_top - 3),
            f"board {b0[1]:.1f}"),
        dim("tag_centre_z", heights["tag_centre_z_mm"], _p(front - 9, 0),
            _p(front - 9, heights["tag_centre_z_mm"]), f"tag {heights['tag_centre_z_mm']:g}"),
        dim("front_y", front, _p(0, -t_top - 9), _p(front, -t_top - 9), f"rack front {front:.1f}"),
        dim("slot_y0", s0, _p(0, -t_top - 15), _p(s0, -t_top - 15), f"slot {s0:g}"),
        dim("slot_y1", s1, _p(0, -t_top - 21), _p(s1, -t_top - 21), f"to {s1:g}"),
        dim("plinth_rear_y", rear, _p(0, -t_top - 27), _p(rear, -t_top - 27),
            f"plinth rear {rear:g}"),
        dim("meld_far_edge_y", m1, _p(0, -t_top - 33), _p(m1, -t_top - 33),
            f"meld strip far edge {m1:g}"),
        dim("hollow_height", hollow, _p(rear + 3, 0), _p(rear + 3, hollow), f"hollow {hollow:g}"),
        dim("table_top", t_top, _p(178, 0), _p(178, -t_top), f"top {t_top:g}"),
        dim("pocket", pocket, _p(m1 + 3, 0), _p(m1 + 3, -pocket), f"pocket {pocket:g}"),
        dim("board_top_z", b1[2], _p(back_y + 3, 0), _p(back_y + 3, b1[2]),
            f"board top {b1[2]:.1f}"),
        text(*_p(-6, 100), f"seat cross-section, mm (y from the table edge, z from the "
             f"surface); player on the left; lean {heights['lean_deg']:g} deg from vertical",
             2.6),
        text(*_p(-6, 95), "wood: table top and rack body (hollow); green: coil boards, the "
             "seat board under the table; grey: 2 mm covers; red: stickers", 2.4),
    ]


def _tiles(layout: dict[str, Any], foot_y: float, ledge: float, up: list[float],
           n: list[float], mpose: dict[str, Any]) -> list[str]:
    tile = layout["tile"]
    th, t = tile["height_mm"], tile["thickness_mm"]
    a = (foot_y, ledge)
    b = (foot_y + up[1] * th, ledge + up[2] * th)
    c = (b[0] + n[1] * t, b[1] + n[2] * t)
    d = (foot_y + n[1] * t, ledge + n[2] * t)
    ivory = "fill:#fff8e0;stroke:#000;stroke-width:0.3"
    meld = layout["zones"]["meld"]["coils"][0]
    my = mpose["origin_mm"][1] + meld["centre_mm"][1]
    tag = (foot_y + up[1] * th / 2, ledge + up[2] * th / 2)
    return [_poly([a, b, c, d], ivory),
            _box(my - th / 2, 0.0, my + th / 2, t, ivory),
            f'<circle cx="{_p(*tag)[0]:.2f}" cy="{_p(*tag)[1]:.2f}" r="0.9" style="fill:#c00"/>',
            f'<circle cx="{_p(my, 0.3)[0]:.2f}" cy="{_p(my, 0.3)[1]:.2f}" r="0.9" '
            'style="fill:#c00"/>']


def _seat_board(layout: dict[str, Any], t_top: float, tb: float) -> list[str]:
    from drawings import dim
    sb = layout["mechanics"]["seat_board"]
    row, sp = sb["header_row_y_mm"], sb["spacer_mm"]
    y0, y1 = row - 21.59, row + 45.72          # the seat board's KiCad frame: header row 45.72
    z = -t_top - sp
    return [_box(y0, z, y1, z - tb, "fill:#2a7a2a;stroke:none"),
            _box(row - 1.3, z - tb, row + 1.3, z - tb - 8.5, "fill:#333;stroke:none"),
            dim("spacer", sp, _p(y1 + 3, -t_top), _p(y1 + 3, z), f"spacer {sp:g}"),
            dim("seat_header_row_y", row, _p(0, z - 14), _p(row, z - 14),
                f"seat board header row {row:g}")]


def jig_drawing(layout: dict[str, Any]) -> list[str]:
    """The jig's carriage (commissioning.md, "Test jig"): the reference tile held in a
    carriage as wide as a slot, on spacers that set each zone's tag distances, with shims
    for the sideways play and the offsets along the slot."""
    from drawings import dim, rect, text
    tile = layout["tile"]
    rib = layout["slot_detent"]["rib_width_mm"]
    play = layout["slot_detent"]["play_mm"]
    body = []
    x = 10.0
    for name, zone in layout["zones"].items():
        pitch = zone.get("slot_pitch_mm") or (2 * tile["width_mm"] + 1 + rib)
        width = pitch - rib
        d = zone["tag_to_coil_mm"]
        spacer = round(d["worst"] - d["nominal"], 2)
        h = tile["height_mm"]
        body += [rect(x, 20, width, h, "fill:#fff8e0;stroke:#000;stroke-width:0.3"),
                 rect(x + play, 20 + 2, width - 2 * play, h - 4,
                      "fill:none;stroke:#888;stroke-dasharray:1,1;stroke-width:0.2"),
                 dim(f"{name}.carriage_width", width, (x, 16), (x + width, 16), f"{width:g}"),
                 dim(f"{name}.spacer", spacer, (x + width + 3, 20 + h),
                     (x + width + 3, 20 + h + spacer / 4), f"spacer {spacer:g}"),
                 text(x, 20 + h + 6, f"{name}: spacers 0 and {spacer:g} mm", 2.4),
                 text(x, 20 + h + 10, f"(tag {d['nominal']:g} / {d['worst']:g} mm)", 2.4),
                 text(x, 20 + h + 14, f"shims +-{play:g} mm sideways, +-3 mm along", 2.4)]
        x += max(width, 30.0) + 30.0
    body.append(text(10, 8, "test jig, mm: a carriage as wide as the slot (pitch - rib) holds "
                     "the reference tile; spacers under it set the worst tag distance of each "
                     "zone, shims the sideways play and the offsets along (commissioning.md)",
                     2.6))
    return body
