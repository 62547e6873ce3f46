"""The mechanical drawings (hardware_docs/boards/drawings/*.svg) carry the figures a builder
cuts and drills to; here they are checked against layout.json with formulas written out
independently of hardware_docs/boards/mechanics.py, and the cable runs against the cable
length the BOM buys. (test_boards.py and test_seat_board.py compare the same drawings with
the boards as KiCad's pcbnew reads them, in their DRC runs.)"""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

BOARDS = Path(__file__).resolve().parents[2] / "hardware_docs" / "boards"
DRAWINGS = BOARDS / "drawings"
NS = "{http://www.w3.org/2000/svg}"


def drawing_data(svg_text: str) -> dict[str, Any]:
    """Dimensions, holes, headers, coils, outline and cable runs a drawing carries as data."""
    root = ET.fromstring(svg_text)
    out: dict[str, Any] = {"dims": {}, "holes": {}, "headers": {}, "coils": {}, "runs": {},
                           "outline": None}
    for el in root.iter():
        cls = el.get("class")
        if cls == "dim":
            out["dims"][el.get("data-dim")] = float(el.get("data-mm", "nan"))
        elif cls == "hole":
            out["holes"][el.get("data-ref")] = (float(el.get("data-x", "nan")),
                                               float(el.get("data-y", "nan")))
        elif cls == "header":
            out["headers"][el.get("data-ref")] = (float(el.get("data-x", "nan")),
                                                 float(el.get("data-y", "nan")))
        elif cls == "coil":
            out["coils"][int(el.get("data-ch", "-1"))] = (float(el.get("data-x", "nan")),
                                                         float(el.get("data-y", "nan")))
        elif cls == "outline":
            out["outline"] = (float(el.get("data-w", "nan")), float(el.get("data-h", "nan")))
        elif cls == "run":
            out["runs"][el.get("data-channel")] = float(el.get("data-mm", "nan"))
    return out


def matches_kicad(data: dict[str, Any], kicad: dict[str, Any], tol: float = 0.01) -> list[str]:
    """Where a drawing differs from the board as pcbnew reads it (kicad_check.geometry)."""
    bad = []
    if any(abs(a - b) > tol for a, b in zip(data["outline"], kicad["outline_mm"], strict=True)):
        bad.append(f"outline {data['outline']} != {kicad['outline_mm']}")
    for key, got in (("holes", kicad["holes_mm"]), ("headers", kicad["headers_mm"])):
        if set(data[key]) != set(got):
            bad.append(f"{key}: {sorted(data[key])} != {sorted(got)}")
            continue
        bad += [f"{key} {ref}: {data[key][ref]} != {xy}" for ref, xy in got.items()
                if math.dist(data[key][ref], xy) > tol]
    return bad


@pytest.fixture(scope="module")
def layout() -> dict[str, Any]:
    return dict(json.loads((BOARDS / "layout.json").read_text()))


@pytest.mark.parametrize("name", ["rack", "meld", "discard", "dora"])
def test_a_boards_drawing_gives_its_layout_dimensions(name: str, layout: dict[str, Any]) -> None:
    zone = layout["zones"][name]
    data = drawing_data((DRAWINGS / f"{name}_top.svg").read_text())
    w, h = zone["board_mm"]
    assert data["outline"] == (w, h)
    assert data["dims"]["width"] == w and data["dims"]["height"] == h
    # every coil where layout.json puts it (board frame y up -> drawing y down)
    assert data["coils"] == {c["channel"]: (c["centre_mm"][0], h - c["centre_mm"][1])
                             for c in zone["coils"]}
    c0 = zone["coils"][0]
    assert data["dims"]["first_coil_x"] == c0["centre_mm"][0]
    assert data["dims"]["coil_centre_from_top"] == h - c0["centre_mm"][1]
    if zone["slot_pitch_mm"]:
        assert data["dims"]["pitch"] == zone["slot_pitch_mm"] == (
            layout["tile"]["width_mm"] + layout["slot_detent"]["play_mm"]
            + layout["slot_detent"]["rib_width_mm"])  # a slot holds a tile with its play
    # one reader header per coil, in the reader band at the board's edge
    assert len(data["headers"]) == len(zone["coils"])
    band = zone["reader_band_mm"]
    for x, y in data["headers"].values():
        assert 0 < x < w and (y > h - band or y < band), (name, x, y)
    assert data["holes"], name


def test_the_seat_section_gives_the_heights_the_layout_implies(layout: dict[str, Any]) -> None:
    """The ledge, tag and board heights recomputed here with plain trigonometry."""
    d = drawing_data((DRAWINGS / "rack_section.svg").read_text())["dims"]
    pose = layout["placement_in_seat_frame"]["rack"]
    lean = math.radians(15.0)                 # layout.json: "leaning 15 deg from vertical"
    z0 = pose["origin_mm"][2]
    foot = layout["zones"]["rack"]["tile_foot_board_y_mm"]
    ledge = z0 + foot * math.cos(lean) + layout["cover_mm"] * math.sin(lean)
    assert d["ledge_z"] == pytest.approx(ledge, abs=0.01)
    tag = ledge + layout["tile"]["height_mm"] / 2 * math.cos(lean)
    assert d["tag_centre_z"] == pytest.approx(tag, abs=0.01)
    assert d["board_top_z"] == pytest.approx(z0 + 92.0 * math.cos(lean), abs=0.01)
    mech = layout["mechanics"]
    assert d["pocket"] == layout["cover_mm"] + mech["board_thickness_mm"]   # cover flush
    assert d["table_top"] == mech["table_top_mm"]
    assert (d["slot_y0"], d["slot_y1"]) == tuple(mech["cable_slot_y_mm"])
    meld_y0 = layout["placement_in_seat_frame"]["meld"]["origin_mm"][1]
    # the slot reaches the meld strip's edge; the plinth covers its reader and network bands
    # and stops short of the meld tiles, which lie centred on the coils
    assert d["slot_y1"] <= meld_y0
    coil_y = meld_y0 + layout["zones"]["meld"]["coils"][0]["centre_mm"][1]
    assert meld_y0 + 50.0 <= d["plinth_rear_y"] <= coil_y - layout["tile"]["height_mm"] / 2
    # the rack's headers and their plugs fit in the hollow under the ledge
    assert pose["origin_mm"][1] - d["front_y"] >= mech["connector_allowance_mm"]


def _run(layout: dict[str, Any], zone: str, slot: int) -> float:
    """One seat cable's length by the rule in mechanics.py's docstring, from the raw numbers:
    the header is 3 mm from the board's lower edge at its coil's x (the boards' KiCad files)."""
    mech = layout["mechanics"]
    pose = layout["placement_in_seat_frame"][zone]
    o, ay, n = pose["origin_mm"], pose["board_y_axis"], pose["coil_normal_towards_tag"]
    t = mech["board_thickness_mm"]
    coil = layout["zones"][zone]["coils"][slot]
    x = o[0] + coil["centre_mm"][0]
    y = o[1] + 3.0 * ay[1] + t * n[1]
    z = o[2] + 3.0 * ay[2] + t * n[2]
    a = mech["connector_allowance_mm"]
    slot_y = sum(mech["cable_slot_y_mm"]) / 2
    sb = mech["seat_board"]
    # the seat board's header J100 + channel: 60.96 mm from its left edge, 5.08 mm apart,
    # a 7.62 mm gap between groups of eight (seat/mjt_seat.kicad_pcb)
    ch = coil["channel"]
    hx = sb["left_x_mm"] + 60.96 + 5.08 * ch + (48.26 - 8 * 5.08) * (ch // 8)
    down = z + mech["table_top_mm"] + (a if zone == "meld" else 0.0)
    along = abs(y - slot_y) + abs(x - hx) + abs(slot_y - sb["header_row_y_mm"])
    return a + down + along + sb["spacer_mm"] + t + a


def test_every_cable_run_fits_the_cable_the_bom_buys(layout: dict[str, Any]) -> None:
    plan = drawing_data((DRAWINGS / "seat_plan.svg").read_text())["runs"]
    centre = drawing_data((DRAWINGS / "centre_plan.svg").read_text())["runs"]
    assert len(plan) == 34 and len(centre) == 11
    for zone, slot in (("rack", 0), ("rack", 17), ("meld", 0), ("meld", 15)):
        ch = layout["zones"][zone]["coils"][slot]["channel"]
        assert plan[f"seat/{ch}"] == pytest.approx(_run(layout, zone, slot), abs=0.1)
    cable = layout["mechanics"]["cable_mm"]
    assert max([*plan.values(), *centre.values()]) <= cable
    design = json.loads((BOARDS / "design.json").read_text())["mechanics"]
    assert design["runs_mm"] == {**plan, **centre}
    bom = (BOARDS.parent / "bom.md").read_text()
    assert re.search(rf"8-way cable[^|]*\b{cable / 10:g} cm", bom), "bom.md names the length"


def test_the_drawing_check_fails_on_a_moved_hole() -> None:
    """The pcbnew comparison can fail: a drawing whose hole moved 0.5 mm."""
    data = drawing_data((DRAWINGS / "discard_top.svg").read_text())
    kicad = {"outline_mm": list(data["outline"]), "holes_mm": dict(data["holes"]),
             "headers_mm": dict(data["headers"])}
    assert matches_kicad(data, kicad) == []
    kicad["holes_mm"]["H1"] = (data["holes"]["H1"][0] + 0.5, data["holes"]["H1"][1])
    assert matches_kicad(data, kicad) != []


def test_the_smallest_table_keeps_the_centre_pads_clear_of_every_seat(
        layout: dict[str, Any]) -> None:
    """Half the table: the centre coils' farthest edge from the centre, the clearance, and the
    meld strip's coils' far edge from the table edge (the meld strip lies flat, y up)."""
    c = layout["mechanics"]["centre"]
    edges = []
    for zone, key in (("discard", "discard_lower_left_mm"), ("dora", "dora_lower_left_mm")):
        for coil in layout["zones"][zone]["coils"]:
            x = c[key][0] + coil["centre_mm"][0]
            y = c[key][1] + coil["centre_mm"][1]
            edges += [abs(x) + coil["outer_x_mm"] / 2, abs(y) + coil["outer_y_mm"] / 2]
    meld = layout["zones"]["meld"]["coils"][0]
    seat = (layout["placement_in_seat_frame"]["meld"]["origin_mm"][1] + meld["centre_mm"][1]
            + meld["outer_y_mm"] / 2)
    side = 2 * (max(edges) + c["clearance_to_seat_coils_mm"] + seat)
    design = json.loads((BOARDS / "design.json").read_text())["mechanics"]
    assert design["min_table_mm"] == pytest.approx(side, abs=0.05)
    assert f"at least **{side:g} mm square**" in (BOARDS.parent / "build.md").read_text()
    plan = ET.fromstring((DRAWINGS / "table_plan.svg").read_text())
    table = next(el for el in plan.iter() if el.get("class") == "table")
    assert float(table.get("data-mm", "nan")) == pytest.approx(side, abs=0.05)


def test_the_jig_carriage_fits_a_slot_and_sets_each_zones_worst_tag_distance(
        layout: dict[str, Any]) -> None:
    d = drawing_data((DRAWINGS / "jig.svg").read_text())["dims"]
    jig = (BOARDS.parent / "commissioning.md").read_text().split("## Test jig")[1]
    for name, zone in layout["zones"].items():
        if zone["slot_pitch_mm"]:
            # a slot between two ribs is the tile's width plus its play
            assert d[f"{name}.carriage_width"] == (layout["tile"]["width_mm"]
                                                   + layout["slot_detent"]["play_mm"])
        tag = zone["tag_to_coil_mm"]
        assert d[f"{name}.spacer"] == pytest.approx(tag["worst"] - tag["nominal"], abs=0.005)
        if d[f"{name}.spacer"]:
            assert f"{d[name + '.spacer']:g} mm" in jig, name


def test_the_build_guide_quotes_the_computed_mechanics(layout: dict[str, Any]) -> None:
    """build.md's numbers are design.json's and layout.json's (a builder reads only it)."""
    guide = (BOARDS.parent / "build.md").read_text()
    design = json.loads((BOARDS / "design.json").read_text())["mechanics"]
    runs = design["runs_mm"]
    seat_runs = [v for k, v in runs.items() if k.startswith("seat/")]
    assert f"longest run the plan computes is {round(max(seat_runs))} mm" in guide
    assert f"the shortest {round(min(seat_runs))} mm" in guide
    centre = max(v for k, v in runs.items() if k.startswith("centre/"))
    assert f"the longest centre run is then {round(centre)} mm" in guide
    rack = design["rack"]
    assert f"the **ledge {rack['ledge_z_mm']:g} mm**" in guide
    assert f"top edge {rack['board_top_z_mm']:.1f} mm up" in guide
    mech = layout["mechanics"]
    sb = mech["seat_board"]
    assert f"left edge at x = {sb['left_x_mm']:g} mm and its header row at y = " \
           f"{sb['header_row_y_mm']:g} mm" in guide
    s0, s1 = mech["cable_slot_y_mm"]
    assert f"y = {s0:g} to {s1:g} mm" in guide
    assert f"**{mech['cable_mm'] / 10:g} cm long**" in guide
