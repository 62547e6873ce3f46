"""Writers for KiCad 6 S-expression files (.kicad_pcb, .kicad_sch, .kicad_pro) from plain data.

Only what the coil boards need: footprints with SMD and through-hole pads, net-tie coil
footprints with copper graphics, tracks, vias, edge cuts, and a schematic of embedded symbols
whose pins carry net labels. Coordinates in mm, KiCad's frame (y down).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field

NS = uuid.UUID("6d6a742d-626f-6172-6473-000000000001")


def uid(*parts: object) -> str:
    """A stable UUID (the same inputs give the same file)."""
    return str(uuid.uuid5(NS, "/".join(str(p) for p in parts)))


def q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def f(v: float) -> str:
    return f"{v:.4f}".rstrip("0").rstrip(".") if v != 0 else "0"


@dataclass
class Pad:
    number: str
    kind: str                    # "smd", "thru_hole", "np_thru_hole"
    x: float                     # relative to the footprint, KiCad frame
    y: float
    w: float
    h: float
    net: str = ""
    drill: float = 0.0
    shape: str = "roundrect"
    layers: str = '"F.Cu" "F.Paste" "F.Mask"'


@dataclass
class Footprint:
    ref: str
    value: str
    lib: str
    x: float
    y: float
    pads: list[Pad]
    lines: list[tuple[float, float, float, float, str, float]] = field(default_factory=list)
    descr: str = ""
    tags: str = ""
    attr: str = "smd"


@dataclass
class Board:
    name: str
    width: float
    height: float
    footprints: list[Footprint] = field(default_factory=list)
    segments: list[tuple[float, float, float, float, float, str, str]] = field(default_factory=list)
    vias: list[tuple[float, float, str]] = field(default_factory=list)
    zones: list[tuple[str, str, list[tuple[float, float]]]] = field(default_factory=list)

    def nets(self) -> list[str]:
        names = {p.net for fp in self.footprints for p in fp.pads if p.net}
        names |= {s[6] for s in self.segments} | {v[2] for v in self.vias}
        names |= {z[1] for z in self.zones}
        return sorted(names)


LAYERS = """  (layers
    (0 "F.Cu" signal) (31 "B.Cu" signal)
    (32 "B.Adhes" user "B.Adhesive") (33 "F.Adhes" user "F.Adhesive")
    (34 "B.Paste" user) (35 "F.Paste" user)
    (36 "B.SilkS" user "B.Silkscreen") (37 "F.SilkS" user "F.Silkscreen")
    (38 "B.Mask" user) (39 "F.Mask" user)
    (40 "Dwgs.User" user "User.Drawings") (41 "Cmts.User" user "User.Comments")
    (42 "Eco1.User" user "User.Eco1") (43 "Eco2.User" user "User.Eco2")
    (44 "Edge.Cuts" user) (45 "Margin" user)
    (46 "B.CrtYd" user "B.Courtyard") (47 "F.CrtYd" user "F.Courtyard")
    (48 "B.Fab" user) (49 "F.Fab" user)
  )
"""


def _footprint(fp: Footprint, netnum: dict[str, int]) -> str:
    out = [f'  (footprint {q(fp.lib)} (layer "F.Cu") (tedit 0) (tstamp {uid(fp.ref, "fp")})',
           f"    (at {f(fp.x)} {f(fp.y)})"]
    if fp.descr:
        out.append(f"    (descr {q(fp.descr)})")
    if fp.tags:
        out.append(f"    (tags {q(fp.tags)})")
    out.append(f"    (attr {fp.attr})" if fp.attr else "    (attr exclude_from_pos_files)")
    font = "(effects (font (size 0.8 0.8) (thickness 0.12)))"
    out.append(f'    (fp_text reference {q(fp.ref)} (at 0 0) (layer "F.Fab") {font} '
               f'(tstamp {uid(fp.ref, "ref")}))')
    out.append(f'    (fp_text value {q(fp.value)} (at 0 1.5) (layer "F.Fab") hide {font} '
               f'(tstamp {uid(fp.ref, "val")}))')
    for i, (x1, y1, x2, y2, layer, width) in enumerate(fp.lines):
        out.append(f"    (fp_line (start {f(x1)} {f(y1)}) (end {f(x2)} {f(y2)}) (layer {q(layer)}) "
                   f"(width {f(width)}) (tstamp {uid(fp.ref, 'l', i)}))")
    for p in fp.pads:
        net = f" (net {netnum[p.net]} {q(p.net)})" if p.net else ""
        drill = f" (drill {f(p.drill)})" if p.drill else ""
        rr = " (roundrect_rratio 0.25)" if p.shape == "roundrect" else ""
        out.append(f"    (pad {q(p.number)} {p.kind} {p.shape} (at {f(p.x)} {f(p.y)}) "
                   f"(size {f(p.w)} {f(p.h)}){drill} (layers {p.layers}){rr}{net} "
                   f"(tstamp {uid(fp.ref, 'p', p.number, p.x, p.y)}))")
    out.append("  )")
    return "\n".join(out)


def write_pcb(board: Board, path: str) -> None:
    nets = board.nets()
    netnum = {n: i + 1 for i, n in enumerate(nets)}
    out = ["(kicad_pcb (version 20211014) (generator mjt_generate)",
           "  (general (thickness 1.6))", '  (paper "A3")', LAYERS.rstrip("\n"),
           "  (setup (pad_to_mask_clearance 0.05))", '  (net 0 "")']
    out += [f"  (net {i} {q(n)})" for n, i in netnum.items()]
    out += [_footprint(fp, netnum) for fp in board.footprints]
    w, h = board.width, board.height
    for i, (x1, y1, x2, y2) in enumerate(((0, 0, w, 0), (w, 0, w, h), (w, h, 0, h), (0, h, 0, 0))):
        out.append(f'  (gr_line (start {f(x1)} {f(y1)}) (end {f(x2)} {f(y2)}) (layer "Edge.Cuts") '
                   f"(width 0.1) (tstamp {uid(board.name, 'edge', i)}))")
    for i, (x1, y1, x2, y2, width, layer, net) in enumerate(board.segments):
        out.append(f"  (segment (start {f(x1)} {f(y1)}) (end {f(x2)} {f(y2)}) (width {f(width)}) "
                   f"(layer {q(layer)}) (net {netnum[net]}) (tstamp {uid(board.name, 's', i)}))")
    for i, (x, y, net) in enumerate(board.vias):
        out.append(f'  (via (at {f(x)} {f(y)}) (size 0.6) (drill 0.3) (layers "F.Cu" "B.Cu") '
                   f"(net {netnum[net]}) (tstamp {uid(board.name, 'v', i)}))")
    out += [_zone(board, i, z, netnum) for i, z in enumerate(board.zones)]
    out.append(")")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(out) + "\n")


def _zone(board: Board, i: int, zone: tuple[str, str, list[tuple[float, float]]],
          netnum: dict[str, int]) -> str:
    """A copper pour, pads connected solid (no thermal spokes); kicad_check.py fills it."""
    layer, net, pts = zone
    xy = " ".join(f"(xy {f(x)} {f(y)})" for x, y in pts)
    return (f"  (zone (net {netnum[net]}) (net_name {q(net)}) (layer {q(layer)}) "
            f"(tstamp {uid(board.name, 'z', i)}) (hatch edge 0.508)\n"
            f"    (connect_pads yes (clearance 0.2))\n"
            f"    (min_thickness 0.25) (filled_areas_thickness no)\n"
            f"    (fill yes (thermal_gap 0.5) (thermal_bridge_width 0.5))\n"
            f"    (polygon (pts {xy}))\n  )")


def write_project(path: str, clearance: float, track: float) -> None:
    """Design rules a 2-layer order at a common fab meets (README.md gives the fab limits)."""
    rules = {"min_clearance": clearance, "min_track_width": track, "min_via_diameter": 0.5,
             "min_via_annular_width": 0.1, "min_through_hole_diameter": 0.3,
             "min_hole_to_hole": 0.25, "min_hole_clearance": 0.25,
             "min_copper_edge_clearance": 0.5, "min_silk_clearance": 0.0}
    classes = [{"name": "Default", "clearance": clearance, "track_width": track,
                "via_diameter": 0.6, "via_drill": 0.3, "diff_pair_width": 0.2,
                "diff_pair_gap": 0.25, "diff_pair_via_gap": 0.25,
                "microvia_diameter": 0.3, "microvia_drill": 0.1, "wire_width": 6,
                "bus_width": 12, "line_style": 0, "pcb_color": "rgba(0, 0, 0, 0.000)",
                "schematic_color": "rgba(0, 0, 0, 0.000)"}]
    project = {"board": {"design_settings": {"rules": rules, "defaults": {}}},
               "meta": {"filename": path.rsplit("/", 1)[-1], "version": 1},
               "net_settings": {"classes": classes, "meta": {"version": 2}},
               "pcbnew": {"page_layout_descr_file": ""},
               "schematic": {"legacy_lib_dir": "", "legacy_lib_list": []}}
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(project, fh, indent=2)
        fh.write("\n")
