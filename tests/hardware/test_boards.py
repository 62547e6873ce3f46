"""The coil boards: generated from layout.json, opened by KiCad's own pcbnew (Debian's kicad,
run by /usr/bin/python3), design-rule checked, Gerbers plotted; the schematic agrees with the
board; the coil and matching models agree with independent references."""

from __future__ import annotations

import cmath
import importlib
import json
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.hardware.test_drawings import drawing_data, matches_kicad

BOARDS = Path(__file__).resolve().parents[2] / "hardware_docs" / "boards"
SYSTEM_PY = "/usr/bin/python3"


def _load(name: str) -> ModuleType:
    if str(BOARDS) not in sys.path:
        sys.path.insert(0, str(BOARDS))
    return importlib.import_module(name)


def _has_pcbnew() -> bool:
    try:
        return subprocess.run([SYSTEM_PY, "-c", "import pcbnew"], capture_output=True,
                              timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


needs_kicad = pytest.mark.skipif(not _has_pcbnew(), reason="KiCad's pcbnew is missing: "
                                 "run scripts/test as root or 'apt-get install kicad'")


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("boards")
    summary = _load("generate").main(str(out))
    return out, summary


def _kicad_check(folders: list[Path]) -> list[dict[str, Any]]:
    proc = subprocess.run([SYSTEM_PY, str(BOARDS / "kicad_check.py"), *map(str, folders)],
                          capture_output=True, text=True, timeout=300)
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


@needs_kicad
def test_every_board_passes_kicads_drc_and_plots_gerbers(generated: tuple[Path, Any]) -> None:
    out, summary = generated
    folders = [out / name for name in summary["boards"]]
    results = _kicad_check(folders)
    assert len(results) == 4
    for r in results:
        assert r["violations"] == 0, r
        assert r["unconnected"] == 0, r
        # the drawing a builder cuts to is the board KiCad reads (outline, holes, headers)
        name = r["board"].removeprefix("mjt_").removesuffix(".kicad_pcb")
        drawn = drawing_data((out / "drawings" / f"{name}_top.svg").read_text())
        assert matches_kicad(drawn, r) == [], name
        layers = " ".join(r["gerbers"])
        for part in ("F_Cu", "B_Cu", "F_Mask", "B_Mask", "Edge_Cuts", "PTH.drl"):
            assert part in layers, (r["board"], part)


@needs_kicad
def test_the_drc_catches_a_track_moved_onto_another_net(generated: tuple[Path, Any],
                                                         tmp_path: Path) -> None:
    """The check can fail: a copy of the rack with one TX track shifted onto its neighbour."""
    src = generated[0] / "rack"
    dst = tmp_path / "rack"
    shutil.copytree(src, dst)
    pcb = next(dst.glob("*.kicad_pcb"))
    text = pcb.read_text()
    m = re.search(r'\(segment \(start ([\d.]+) ([\d.]+)\) \(end ([\d.]+) ([\d.]+)\) \(width 0.5\) '
                  r'\(layer "F.Cu"\) \(net (\d+)\)', text)
    assert m
    x1, y1, x2, y2 = (float(m.group(i)) for i in range(1, 5))
    moved = m.group(0).replace(f"(start {m.group(1)} ", f"(start {x1 + 2.5:.4f} ").replace(
        f"(end {m.group(3)} ", f"(end {x2 + 2.5:.4f} ")
    pcb.write_text(text.replace(m.group(0), moved, 1))
    (result,) = _kicad_check([dst])
    assert result["violations"] + result["unconnected"] > 0, (y1, y2)


def _pads_by_ref(pcb_text: str) -> dict[tuple[str, str], str]:
    """(reference, pad) -> net, read from the .kicad_pcb text."""
    out: dict[tuple[str, str], str] = {}
    for block in pcb_text.split("  (footprint ")[1:]:
        ref = re.search(r'fp_text reference "([^"]+)"', block)
        assert ref
        for num, net in re.findall(r'\(pad "([^"]*)" [^\n]*?\(net \d+ "([^"]+)"\)', block):
            out[(ref.group(1), num)] = net
    return out


def test_the_schematic_labels_every_pad_with_the_boards_net(generated: tuple[Path, Any]) -> None:
    out, summary = generated
    for name in summary["boards"]:
        pads = _pads_by_ref(next((out / name).glob("*.kicad_pcb")).read_text())
        sch = next((out / name).glob("*.kicad_sch")).read_text()
        labels = set(re.findall(r'\(label "([^"]+)"', sch))
        refs = set(re.findall(r'\(symbol_instances([\s\S]*)', sch)[0].split('(reference "')[1:])
        sch_refs = {r.split('"')[0] for r in refs}
        board_refs = {ref for ref, _ in pads if not ref.startswith("H")}
        assert sch_refs == board_refs, name
        assert {net for net in pads.values()} <= labels, name
        assert _balanced(sch), name
        defined = set(re.findall(r'\(symbol "(mjt:[^"]+)"', sch))
        assert set(re.findall(r'\(lib_id "([^"]+)"\)', sch)) <= defined, name


def _balanced(text: str) -> bool:
    """Parentheses outside strings balance (a KiCad S-expression file reads as one list)."""
    depth, in_str, escaped = 0, False, False
    for ch in text:
        if in_str:
            if ch == '"' and not escaped:
                in_str = False
            escaped = ch == "\\" and not escaped
            continue
        if ch == '"':
            in_str = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0 and not in_str


def test_coils_fit_their_slots_and_boards() -> None:
    layout = json.loads((BOARDS / "layout.json").read_text())
    tile = layout["tile"]
    for name, zone in layout["zones"].items():
        w, h = zone["board_mm"]
        coils = zone["coils"]
        for c in coils:
            x, y = c["centre_mm"]
            assert c["outer_x_mm"] / 2 <= x <= w - c["outer_x_mm"] / 2, name
            assert c["outer_y_mm"] / 2 <= y <= h - c["outer_y_mm"] / 2, name
        for a in coils:
            for b in coils:
                if a is b:
                    continue
                dx = abs(a["centre_mm"][0] - b["centre_mm"][0])
                dy = abs(a["centre_mm"][1] - b["centre_mm"][1])
                assert dx >= a["outer_x_mm"] or dy >= a["outer_y_mm"], (name, a, b)
        if zone.get("slot_pitch_mm"):
            assert zone["slot_pitch_mm"] > tile["width_mm"]
            assert coils[0]["outer_x_mm"] < tile["width_mm"]
    assert len(layout["zones"]["rack"]["coils"]) + len(layout["zones"]["meld"]["coils"]) == 34


def test_the_two_inductance_formulas_agree() -> None:
    """AN1445's Grover-type formula and Mohan's current-sheet formula are independent models."""
    coil = _load("coil")
    for args in ((22, 30, 5, 0.4, 0.4), (56, 40, 3, 0.8, 0.6), (40, 40, 4, 0.5, 0.5)):
        c = coil.Coil(*args)
        a, b = coil.inductance_nxp(c), coil.inductance_current_sheet(c)
        assert abs(a - b) / a < 0.12, (args, a, b)
        assert 0.3e-6 < a < 3e-6


def test_the_field_matches_the_closed_form_of_a_square_loop() -> None:
    """On the axis of one square turn of side s:
    H = I s^2 / (2 pi (s^2/4 + z^2) sqrt(s^2/2 + z^2))."""
    coil = _load("coil")
    c = coil.Coil(20.4, 20.4, 1, 0.4, 0.4)
    s = 20.0e-3
    for z_mm in (0.0, 2.3, 10.0, 21.3):
        z = z_mm * 1e-3
        expected = s * s / (2 * math.pi * (s * s / 4 + z * z) * math.sqrt(s * s / 2 + z * z))
        assert abs(abs(coil.field_z(c, 0, 0, z_mm)) - expected) / expected < 1e-6


def test_the_mutual_inductance_far_apart_is_that_of_two_dipoles() -> None:
    """Two coplanar loops d apart, d >> size: M = -mu0 A1 A2 / (4 pi d^3)."""
    coil = _load("coil")
    c = coil.Coil(20.4, 20.4, 1, 0.4, 0.4)
    area = 0.02 ** 2
    for d_mm in (200.0, 400.0):
        expected = -coil.MU0 * area * area / (4 * math.pi * (d_mm * 1e-3) ** 3)
        assert coil.mutual_inductance(c, d_mm, 20) == pytest.approx(expected, rel=0.02)


def _z_nodal(l0: float, c0: float, c1: float, c2: float, r: float, lant: float) -> complex:
    """TX1-TX2 impedance by a full (not half) circuit: series and shunt elements by hand."""
    w = 2 * math.pi * 13.56e6
    zl0, zc0, zc1, zc2 = 1j * w * l0, 1 / (1j * w * c0), 1 / (1j * w * c1), 1 / (1j * w * c2)
    z_ant = complex(r, w * lant)
    # The two C2 to ground in series across the antenna: 2*zc2 in parallel with z_ant.
    across = 1 / (1 / z_ant + 1 / (2 * zc2))
    branch = 2 * zc1 + across
    shunt = 1 / (1 / branch + 1 / (2 * zc0))
    return 2 * zl0 + shunt


@settings(max_examples=40, deadline=None)
@given(turns=st.integers(3, 6), side=st.floats(18, 30), z=st.floats(20, 60), q=st.floats(15, 35))
def test_the_matching_gives_the_target_impedance(turns: int, side: float, z: float,
                                                 q: float) -> None:
    coil = _load("coil")
    c = coil.Coil(side, side + 8, turns, 0.4, 0.4)
    ind = coil.inductance_nxp(c)
    try:
        mt = coil.solve_matching(ind, coil.resistance_ac(c), z_target=z, q=q, c_ant=0.0)
    except ValueError:
        return
    r_total = coil.OMEGA * ind / q
    got = _z_nodal(mt.l0, mt.c0, mt.c1, mt.c2, r_total, ind)
    assert abs(got - z) < 1e-6 * z, got
    assert mt.c1 > 0 and mt.c2 > 0
    assert abs(cmath.phase(got)) < 1e-6


def test_the_emc_filter_cuts_off_where_asked() -> None:
    coil = _load("coil")
    mt = coil.solve_matching(1.2e-6, 0.5, l0=560e-9, f_emc=14.4e6)
    assert 1 / (2 * math.pi * math.sqrt(mt.l0 * mt.c0)) == pytest.approx(14.4e6, rel=1e-9)


def _without_dates(text: str) -> list[str]:
    return [line for line in text.splitlines()
            if "CreationDate" not in line and "Created by" not in line and "DRILL file" not in line
            and not line.startswith(";") and "TF.ProjectId" not in line]


def test_the_committed_design_files_are_what_layout_json_generates(
        generated: tuple[Path, Any]) -> None:
    """Nobody edits a board by hand: the repository's files equal the generator's output."""
    out, summary = generated
    for name in summary["boards"]:
        for pattern in ("*.kicad_pcb", "*.kicad_sch", "*_bom.csv", "*_cpl.csv"):
            fresh = next((out / name).glob(pattern)).read_text()
            committed = next((BOARDS / name).glob(pattern)).read_text()
            assert fresh == committed, f"{name}/{pattern}: run hardware_docs/boards/generate.py"
    fresh_design = json.loads((out / "design.json").read_text())
    assert fresh_design["boards"] == json.loads((BOARDS / "design.json").read_text())["boards"]


@needs_kicad
def test_the_committed_gerbers_are_plotted_from_the_committed_boards(
        generated: tuple[Path, Any]) -> None:
    out, summary = generated
    _kicad_check([out / name for name in summary["boards"]])
    for name in summary["boards"]:
        committed = sorted((BOARDS / name / "gerbers").iterdir())
        assert committed, f"{name}: no Gerbers committed"
        for path in committed:
            fresh = (out / name / "gerbers" / path.name).read_text()
            assert _without_dates(fresh) == _without_dates(path.read_text()), path.name


def test_each_boards_coils_sit_where_layout_json_says(generated: tuple[Path, Any]) -> None:
    """The field schedule is derived from layout.json: the boards must put the coils there."""
    out, summary = generated
    layout = json.loads((BOARDS / "layout.json").read_text())
    for name, zone in layout["zones"].items():
        text = next((out / name).glob("*.kicad_pcb")).read_text()
        coil_fp = r'NetTie_PCB_coil" [^\n]*\n\s*\(at ([\d.]+) ([\d.]+)\)[\s\S]*?reference "L(\d+)"'
        found = {int(ref): (float(x), float(y)) for x, y, ref in re.findall(coil_fp, text)}
        height = zone["board_mm"][1]
        assert len(found) == len(zone["coils"]), name
        for i, coil in enumerate(zone["coils"]):
            x, y = found[i + 1]
            assert (x, height - y) == pytest.approx(tuple(coil["centre_mm"]), abs=1e-3), (name, i)


# MFRC522 (NXP product data sheet Rev. 3.9, section 7.1 Table 3 "Pin description"), typed here
# independently of hardware_docs/boards/reader_pins.py: pin -> symbol.
DATASHEET_PINS = {
    1: "I2C", 2: "PVDD", 3: "DVDD", 4: "DVSS", 5: "PVSS", 6: "NRSTPD", 7: "MFIN", 8: "MFOUT",
    9: "SVDD", 10: "TVSS", 11: "TX1", 12: "TVDD", 13: "TX2", 14: "TVSS", 15: "AVDD",
    16: "VMID", 17: "RX", 18: "AVSS", 19: "AUX1", 20: "AUX2", 21: "OSCIN", 22: "OSCOUT",
    23: "IRQ", 24: "SDA", 25: "D1", 26: "D2", 27: "D3", 28: "D4", 29: "D5", 30: "D6", 31: "D7",
    32: "EA",
}
SUPPLY = {"PVDD", "DVDD", "SVDD", "TVDD", "AVDD"}
GROUND = {"DVSS", "PVSS", "TVSS", "AVSS"}
# Section 8.1.1, Table 4: SPI is I2C = 0, EA = 1; SDA = NSS, D5 = SCK, D6 = MOSI, D7 = MISO.
SPI_ROLE = {"SDA": "NSS", "D5": "SCK", "D6": "MOSI", "D7": "MISO", "NRSTPD": "RST"}
# wiring.md, "Coil-board readers": the cell header's pins.
HEADER_PINS = {"NSS": "1", "SCK": "2", "MOSI": "3", "MISO": "4", "3V3": "5", "GND": "6",
               "RST": "7"}
UNUSED = {"MFIN", "MFOUT", "AUX1", "AUX2", "IRQ", "D1", "D2", "D3", "D4"}


def _footprints(pcb_text: str) -> dict[str, tuple[str, float, float, list[tuple[str, float,
                                                                               float, str]]]]:
    """reference -> (library, x, y, [(pad, x, y, net)]) from the .kicad_pcb text."""
    out = {}
    for block in pcb_text.split("  (footprint ")[1:]:
        lib = block.split('"')[1]
        ref = re.search(r'fp_text reference "([^"]+)"', block)
        at = re.search(r"\n    \(at ([-\d.]+) ([-\d.]+)\)", block)
        assert ref and at
        pads = [(num, float(x), float(y), net or "") for num, x, y, net in re.findall(
            r'\(pad "([^"]*)" \S+ \S+ \(at ([-\d.]+) ([-\d.]+)\)[^\n]*?(?:\(net \d+ "([^"]+)"\))?'
            r' \(tstamp', block)]
        out[ref.group(1)] = (lib, float(at.group(1)), float(at.group(2)), pads)
    return out


def _net_of(fps: dict[str, Any], ref: str, pad: str) -> str:
    return next(n for num, _x, _y, n in fps[ref][3] if num == pad)


def _check_chip(fps: dict[str, Any], slot: int) -> None:
    chip = {num: net for num, _x, _y, net in fps[f"U{slot}"][3]}
    hdr = {name: _net_of(fps, f"J{slot}", pin) for name, pin in HEADER_PINS.items()}
    assert hdr["GND"] == "GND" and hdr["3V3"] != "GND"
    for pin, name in DATASHEET_PINS.items():
        net = chip[str(pin)]
        if name in SUPPLY or name == "EA":
            assert net == hdr["3V3"], (slot, name, net)
        elif name in GROUND or name == "I2C":
            assert net == "GND", (slot, name, net)
        elif name in SPI_ROLE and name != "D7":
            assert net == hdr[SPI_ROLE[name]], (slot, name, net)
        elif name in UNUSED:
            assert net == "", (slot, name, net)
    assert chip["33"] == "GND"                       # the exposed pad
    # MISO through a 74LVC1G125 (pins 1 /OE, 2 A, 3 GND, 4 Y, 5 VCC: its data sheet's
    # pinning table), enabled by this reader's NSS (wiring.md, "MISO tri-state problem").
    gate = {num: net for num, _x, _y, net in fps[f"U{100 + slot}"][3]}
    assert gate == {"1": hdr["NSS"], "2": chip["31"], "3": "GND", "4": hdr["MISO"],
                    "5": hdr["3V3"]}, (slot, gate)
    assert chip["31"] != hdr["MISO"]
    inductors = {n for ref, fp in fps.items() if re.fullmatch(r"L1\d\d", ref)
                 for *_p, n in fp[3]}
    assert chip["11"] in inductors and chip["13"] in inductors and chip["11"] != chip["13"]
    xtal = {num: net for num, _x, _y, net in fps[f"Y{slot}"][3]}
    assert {xtal["1"], xtal["3"]} == {chip["21"], chip["22"]} and xtal["2"] == xtal["4"] == "GND"
    for node in (chip["21"], chip["22"], chip["16"]):    # load capacitors, VMID capacitor
        caps = [fp for ref, fp in fps.items() if ref.startswith("C")
                and {n for *_p, n in fp[3]} == {node, "GND"}]
        assert len(caps) == 1, (slot, node)
    r1 = [ref for ref, fp in fps.items() if re.fullmatch(r"R1\d\d", ref)
          and chip["17"] in {n for *_p, n in fp[3]}]
    r2 = [ref for ref, fp in fps.items() if ref.startswith("R")
          and {n for *_p, n in fp[3]} == {chip["17"], chip["16"]}]
    assert len(r1) == 1 and len(r2) == 1, (slot, r1, r2)


def _turns_counterclockwise(fp: tuple[str, float, float, list[Any]]) -> bool:
    """Pins 1, 9, 17, 25 lie counterclockwise seen from the top, as in the data sheet's
    pinning diagram (section 7): the footprint is turned, never mirrored."""
    _lib, cx, cy, pads = fp
    ang = {num: math.atan2(-(y), x) for num, x, y, _n in pads}
    steps = [(ang[b] - ang[a]) % (2 * math.pi) for a, b in (("1", "9"), ("9", "17"),
                                                             ("17", "25"))]
    return all(0 < s < math.pi for s in steps)


def test_every_reader_chip_is_wired_as_the_data_sheet_says(generated: tuple[Path, Any]) -> None:
    out, summary = generated
    for name, board in summary["boards"].items():
        fps = _footprints(next((out / name).glob("*.kicad_pcb")).read_text())
        for slot in range(1, board["coils"] + 1):
            _check_chip(fps, slot)
            assert _turns_counterclockwise(fps[f"U{slot}"]), (name, slot)
        chips = [ref for ref, fp in fps.items() if "HVQFN-32" in fp[0]]
        assert len(chips) == board["coils"], name


def test_the_pin_check_fails_on_a_chip_wired_for_i2c(generated: tuple[Path, Any]) -> None:
    """The check can fail: EA and I2C swapped (Table 4's I2C-bus selection)."""
    out, _summary = generated
    fps = _footprints((out / "discard" / "mjt_discard.kicad_pcb").read_text())
    lib, x, y, pads = fps["U1"]
    nets = {num: n for num, _x, _y, n in pads}
    swapped = [(num, px, py, nets["32"] if num == "1" else nets["1"] if num == "32" else n)
               for num, px, py, n in pads]
    fps["U1"] = (lib, x, y, swapped)
    with pytest.raises(AssertionError):
        _check_chip(fps, 1)
    mirrored = (lib, x, y, [(num, -px, py, n) for num, px, py, n in pads])
    assert not _turns_counterclockwise(mirrored)


def test_the_committed_drawings_are_what_the_generator_makes(
        generated: tuple[Path, dict[str, Any]]) -> None:
    out, summary = generated
    fresh = sorted(p.name for p in (out / "drawings").iterdir())
    assert fresh == sorted(p.name for p in (BOARDS / "drawings").iterdir())
    for name in fresh:
        assert (out / "drawings" / name).read_text() == (BOARDS / "drawings" / name).read_text(), (
            f"drawings/{name}: run hardware_docs/boards/generate.py")
    assert json.loads((BOARDS / "design.json").read_text())["mechanics"] == summary["mechanics"]
