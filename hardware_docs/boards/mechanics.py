"""How the boards sit in the table, from layout.json ("placement_in_seat_frame", "mechanics"):
the heights that matter, every reader cable's run from its coil board's header to the seat
board's (or the centre board's) header of the same channel, and the cable length to buy.

Frames (layout.json "frames"): a board's own frame has its origin at the lower-left corner
seen from the tile side, y up; KiCad's has it at the upper-left, y down (x_k, h - y).
The seat frame: origin at the middle of the seat's table edge, x to the player's right,
y towards the table centre, z up (the table's surface at z = 0).

A cable's run (all in mm, a path along the table's surfaces, never a straight line):
  allowance at the coil board (the plug and its bend)
  + down from the header to the underside of the table top (through the cable slot or hole;
    a header pointing up first climbs its allowance and comes back: one allowance more)
  + |dy| to the slot, then |dx| + |dy| along the underside to the seat board's header
  + the spacer and the board's thickness (the seat board hangs parts side down)
  + allowance at the seat board.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

Vec = tuple[float, float, float]


@dataclass(frozen=True)
class Run:
    channel: str          # "seat/17", "centre/0"
    zone: str             # rack, meld, discard, dora
    ref: str              # the coil board's header (J1 ...)
    to: str               # the seat board's header (J100 + channel)
    start: Vec            # the coil board's header, seat (or centre) frame
    hole: tuple[float, float]   # where it goes down through the table top (x, y)
    end: tuple[float, float]    # the seat board's header (x, y) under the table
    length_mm: float


def to_frame(pose: dict[str, Any], x: float, y: float) -> Vec:
    """A point of a board (board frame, y up from its lower edge) in the seat frame."""
    o, ax, ay = pose["origin_mm"], pose["board_x_axis"], pose["board_y_axis"]
    return (o[0] + x * ax[0] + y * ay[0], o[1] + x * ax[1] + y * ay[1],
            o[2] + x * ax[2] + y * ay[2])


def rack_heights(layout: dict[str, Any]) -> dict[str, float]:
    """The rack's figures a builder cuts to: ledge height, lean, the board's lower edge."""
    pose = layout["placement_in_seat_frame"]["rack"]
    rack = layout["zones"]["rack"]
    up, n = pose["board_y_axis"], pose["coil_normal_towards_tag"]
    foot = rack["tile_foot_board_y_mm"]
    cover = layout["cover_mm"]
    ledge = to_frame(pose, 0.0, foot)
    ledge_z = ledge[2] + n[2] * cover
    top = to_frame(pose, 0.0, rack["board_mm"][1])
    return {"lean_deg": round(math.degrees(math.atan2(up[1], up[2])), 2),
            "board_lower_edge_z_mm": round(pose["origin_mm"][2], 2),
            "board_lower_edge_y_mm": round(pose["origin_mm"][1], 2),
            "board_top_z_mm": round(top[2], 2),
            "ledge_z_mm": round(ledge_z, 2),
            "tag_centre_z_mm": round(ledge_z + up[2] * layout["tile"]["height_mm"] / 2, 2)}


def meld_pocket_mm(layout: dict[str, Any]) -> float:
    """The pocket in the table top for the meld strip, the discard and the dora pads: board
    plus cover, so that the cover lies flush with the table's surface."""
    return round(layout["cover_mm"] + layout["mechanics"]["board_thickness_mm"], 2)


def _length(start: Vec, up: bool, hole: tuple[float, float], end: tuple[float, float],
            mech: dict[str, Any]) -> float:
    a = mech["connector_allowance_mm"]
    down = start[2] + mech["table_top_mm"] + (a if up else 0.0)
    along = abs(start[1] - hole[1]) + abs(hole[0] - end[0]) + abs(hole[1] - end[1])
    return round(a + down + along + mech["seat_board"]["spacer_mm"]
                 + mech["board_thickness_mm"] + a, 1)


def seat_runs(layout: dict[str, Any], headers: dict[str, dict[str, tuple[float, float]]],
              heights: dict[str, float]) -> list[Run]:
    """Every seat channel's cable. ``headers``: per board (rack, meld, seat) its header
    positions in KiCad's frame (mm, y down); ``heights``: each board's height (mm)."""
    mech = layout["mechanics"]
    sb = mech["seat_board"]
    slot_y = sum(mech["cable_slot_y_mm"]) / 2
    runs = []
    for zone in ("rack", "meld"):
        pose = layout["placement_in_seat_frame"][zone]
        for coil, (ref, (xk, yk)) in zip(layout["zones"][zone]["coils"],
                                         sorted(headers[zone].items(),
                                                key=lambda kv: int(kv[0][1:])), strict=True):
            base = to_frame(pose, xk, heights[zone] - yk)
            n, t = pose["coil_normal_towards_tag"], mech["board_thickness_mm"]
            start = (base[0] + n[0] * t, base[1] + n[1] * t, base[2] + n[2] * t)
            to = f"J{100 + coil['channel']}"
            sx, _sy = headers["seat"][to]
            end = (sb["left_x_mm"] + sx, sb["header_row_y_mm"])
            hole = (start[0], slot_y)
            up = zone == "meld"
            runs.append(Run(f"seat/{coil['channel']}", zone, ref, to, start, hole, end,
                            _length(start, up, hole, end, mech)))
    return runs


def centre_runs(layout: dict[str, Any], headers: dict[str, dict[str, tuple[float, float]]],
                heights: dict[str, float]) -> list[Run]:
    """The centre board's cables: the discard pad and the dora pad, each header pointing up
    in its pad housing, down a hole 5 mm outside the board's edge."""
    mech = layout["mechanics"]
    c = mech["centre"]
    runs = []
    for zone, key in (("discard", "discard_lower_left_mm"), ("dora", "dora_lower_left_mm")):
        x0, y0 = c[key]
        h = heights[zone]
        for coil, (ref, (xk, yk)) in zip(layout["zones"][zone]["coils"],
                                         sorted(headers[zone].items(),
                                                key=lambda kv: int(kv[0][1:])), strict=True):
            y = h - yk
            start = (x0 + xk, y0 + y, -layout["cover_mm"])
            hole = (start[0], y0 - 5.0 if y < h / 2 else y0 + h + 5.0)
            to = f"J{100 + coil['channel']}"
            sx, _sy = headers["seat"][to]
            end = (c["centre_board_left_x_mm"] + sx, c["centre_board_header_row_y_mm"])
            runs.append(Run(f"centre/{coil['channel']}", zone, ref, to, start, hole, end,
                            _length(start, True, hole, end, mech)))
    return runs


def min_table_mm(layout: dict[str, Any]) -> float:
    """The smallest square table whose seats' coils stay the clearance away from the centre
    pads: half of it is the centre pads' farthest reach from the centre (in x or y), the
    clearance, and the farthest seat coil's edge from the table edge (the meld strip's)."""
    c = layout["mechanics"]["centre"]
    reach = 0.0
    for zone, key in (("discard", "discard_lower_left_mm"), ("dora", "dora_lower_left_mm")):
        x0, y0 = c[key]
        for cl in layout["zones"][zone]["coils"]:
            cx, cy = x0 + cl["centre_mm"][0], y0 + cl["centre_mm"][1]
            reach = max(reach, abs(cx) + cl["outer_x_mm"] / 2, abs(cy) + cl["outer_y_mm"] / 2)
    seat = 0.0
    for zone in ("rack", "meld"):
        pose = layout["placement_in_seat_frame"][zone]
        for cl in layout["zones"][zone]["coils"]:
            for dy in (-cl["outer_y_mm"] / 2, cl["outer_y_mm"] / 2):
                seat = max(seat, to_frame(pose, cl["centre_mm"][0], cl["centre_mm"][1] + dy)[1])
    return round(2 * (reach + c["clearance_to_seat_coils_mm"] + seat), 1)


def summary(layout: dict[str, Any], headers: dict[str, dict[str, tuple[float, float]]],
            heights: dict[str, float]) -> dict[str, Any]:
    """What design.json records: the heights, the pocket, every run and the longest."""
    runs = seat_runs(layout, headers, heights) + centre_runs(layout, headers, heights)
    longest = max(runs, key=lambda r: r.length_mm)
    return {"rack": rack_heights(layout), "pocket_mm": meld_pocket_mm(layout),
            "cable_mm": layout["mechanics"]["cable_mm"], "min_table_mm": min_table_mm(layout),
            "longest_run": {"channel": longest.channel, "length_mm": longest.length_mm},
            "runs_mm": {r.channel: r.length_mm for r in runs}}
