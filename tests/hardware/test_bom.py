"""bom.md's priced tables agree with the generated boards and add up.

The quantities come from the per-board BOM CSVs the generator writes (a seat is one rack
and one meld strip; a table is four seats, the discard and the dora pad), not from bom.md;
the money columns are checked against their own quantity and unit price, and the totals
against the rows, so a row edited by hand without the rest fails here.
"""

from __future__ import annotations

import csv
import json
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

BOARDS = Path(__file__).resolve().parents[2] / "hardware_docs" / "boards"
BOM_MD = BOARDS.parent / "bom.md"
SEATS = 4

# LCSC number of each priced coil-board row -> (value, footprint) in the generated CSVs.
COIL_ROWS = {
    "C304279": ("560nH", "L_0805"),
    "C309035": ("220pF", "C_0805"),
    "C309034": ("33pF", "C_0805"),
    "C376868": ("180pF", "C_0805"),
    "C376863": ("12pF", "C_0805"),
    "C282694": ("27pF", "C_0805"),
    "C2933363": ("1.8R", "R_0805"),
    "C2960869": ("1.5R", "R_0805"),
    "C1791": ("1nF", "C_0805"),
    "C3152181": ("1k", "R_0805"),
    "C11322": ("MFRC52202HN1", "HVQFN-32-1EP_5x5mm_P0.5mm_EP3.1x3.1mm"),
    "C20617577": ("27.12MHz", "Crystal_SMD_3225-4Pin_3.2x2.5mm"),
    "C107037": ("15pF", "C_0603"),
    "C6119867": ("100nF", "C_0603"),
    "C185804": ("10uF", "C_0805"),
    "C2907005": ("2.2k", "R_0603"),
    "C22469934": ("74LVC1G125", "SOT-23-5"),
}
HEADER_1X8 = "C6332201"  # one on the coil board and one on the seat board per reader
# The 8-way cable joins two 1 x 8 headers: one housing on each header, eight contacts in each.
CABLE_HOUSING, CABLE_CONTACT, CONTACTS_PER_HOUSING = "C43659", "C14491", 8
# Off the boards, one per seat board (four seats and the centre): the 3.3 V buck module,
# its output-set resistor and its input capacitor.
PER_SEAT_BOARD = {"C527500": 1, "C1740779": 1, "C43333": 1}
SEAT_ROWS = {
    "C7203002": ("Raspberry_Pi_Pico", "RaspberryPi_Pico_TH"),
    "C18164491": ("74HC138", "SOIC-16_3.9x9.9mm_P1.27mm"),
    "C460512": ("74LVC125", "SOIC-14_3.9x8.7mm_P1.27mm"),
    "C3152275": ("33R", "R_1206"),
    "C3017025": ("10k", "R_1206"),
    "C3015151": ("100nF", "C_1206"),
    "C49066": ("100uF", "C_1210"),
    "C429954": ("1x03 2.54mm", "PinHeader_1x03_P2.54mm_Vertical"),
    "C409161": ("3V3 IN 5A", "TerminalBlock_1x02_P5.08mm"),
}


def _csv(board: str) -> Counter[tuple[str, str]]:
    counts: Counter[tuple[str, str]] = Counter()
    with (BOARDS / board / f"mjt_{board}_bom.csv").open() as f:
        for row in csv.DictReader(f):
            counts[(row["value"], row["footprint"].split(":")[-1])] += int(row["qty"])
    return counts


def _priced_rows(section: str) -> dict[str, list[str]]:
    """LCSC number -> the row's cells, for rows ending in unit, seat and table prices."""
    text = BOM_MD.read_text().split(f"## {section}")[1].split("\n## ")[0]
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 9 and re.fullmatch(r"[\d.]+", cells[-3]):
            code = re.match(r"C\d+", cells[-5])
            assert code, f"a priced row names its LCSC part first: {line}"
            rows[code.group()] = cells
    return rows


def _total(section: str) -> tuple[float, float]:
    text = BOM_MD.read_text().split(f"## {section}")[1].split("\n## ")[0]
    bold = r"\*\*([\d.]+)\*\*"
    m = re.search(rf"(?:parts|boards) priced\*\* \|[ |]*{bold} \| {bold} \|", text)
    assert m, f"{section}: a bold total row"
    return float(m.group(1)), float(m.group(2))


@pytest.fixture(scope="module")
def boards() -> dict[str, Counter[tuple[str, str]]]:
    return {b: _csv(b) for b in ("rack", "meld", "discard", "dora", "seat")}


def test_coil_rows_carry_the_generated_boards_quantities(boards: dict) -> None:
    rows = _priced_rows("Coil boards")
    assert set(rows) == set(COIL_ROWS) | {HEADER_1X8, CABLE_HOUSING, CABLE_CONTACT}
    for code, key in COIL_ROWS.items():
        seat = boards["rack"][key] + boards["meld"][key]
        table = SEATS * seat + boards["discard"][key] + boards["dora"][key]
        assert (int(rows[code][-7]), int(rows[code][-6])) == (seat, table), code
    readers = ("MFRC52202HN1", "HVQFN-32-1EP_5x5mm_P0.5mm_EP3.1x3.1mm")
    coils = SEATS * (boards["rack"][readers] + boards["meld"][readers]) \
        + boards["discard"][readers] + boards["dora"][readers]
    assert coils == 147
    seat_coils = boards["rack"][readers] + boards["meld"][readers]
    headers = (2 * seat_coils, 2 * coils)
    assert (int(rows[HEADER_1X8][-7]), int(rows[HEADER_1X8][-6])) == headers
    assert (int(rows[CABLE_HOUSING][-7]), int(rows[CABLE_HOUSING][-6])) == headers
    contacts = tuple(CONTACTS_PER_HOUSING * n for n in headers)
    assert (int(rows[CABLE_CONTACT][-7]), int(rows[CABLE_CONTACT][-6])) == contacts


def test_seat_rows_carry_the_seat_boards_quantities(boards: dict) -> None:
    rows = _priced_rows("Seat boards")
    assert set(rows) == set(SEAT_ROWS) | set(PER_SEAT_BOARD)
    for code, per_board in PER_SEAT_BOARD.items():
        assert (int(rows[code][-7]), int(rows[code][-6])) == (per_board, (SEATS + 1) * per_board)
    for code, key in SEAT_ROWS.items():
        assert int(rows[code][-7]) == boards["seat"][key], code
        assert SEATS * boards["seat"][key] <= int(rows[code][-6]) <= (SEATS + 1) * boards[
            "seat"][key], code


# The tuning kit: C1 two E24 steps either side of 33 pF, the C2 trim three either side of
# 12 pF (E24 below 10 pF, E12 above), 40 of each: a rack's 18 coils have 36 positions.
KIT_VALUES = {"27 pF", "30 pF", "36 pF", "39 pF", "6.8 pF", "8.2 pF", "10 pF", "15 pF",
              "18 pF", "22 pF"}
KIT_EACH = 40


def test_the_tuning_kit_holds_each_value_once() -> None:
    rows = _priced_rows("Tuning spares")
    assert {cells[1] for cells in rows.values()} == KIT_VALUES
    assert len(rows) == len(KIT_VALUES)
    assert all((int(c[-7]), int(c[-6])) == (KIT_EACH, KIT_EACH) for c in rows.values())


PARTS_SECTIONS = ["Coil boards", "Seat boards", "Tuning spares", "The Pi side",
                  "Tiles and mechanics"]


def _tier(cell: str) -> tuple[int, float]:
    """A quantity tier as quoted: "100-299", or "1+" for source [L]'s open last tier."""
    if cell.endswith("+"):
        return int(cell[:-1]), float("inf")
    low, high = cell.split("-")
    return int(low), int(high)


def _parts_total() -> tuple[float, float]:
    totals = [_total(section) for section in PARTS_SECTIONS]
    return sum(t[0] for t in totals), sum(t[1] for t in totals)


@pytest.mark.parametrize("section", PARTS_SECTIONS)
def test_every_priced_row_and_total_adds_up(section: str) -> None:
    rows = _priced_rows(section)
    seat_sum = table_sum = 0.0
    for code, cells in rows.items():
        per_seat, per_table = int(cells[-7]), int(cells[-6])
        assert int(_tier(cells[-4])[0]) <= per_table <= _tier(cells[-4])[1], \
            f"{code}: the quoted tier holds one table's quantity"
        unit, seat, table = float(cells[-3]), float(cells[-2]), float(cells[-1])
        assert seat == pytest.approx(per_seat * unit, abs=0.0051), code
        assert table == pytest.approx(per_table * unit, abs=0.0051), code
        seat_sum += seat
        table_sum += table
    seat_total, table_total = _total(section)
    assert seat_total == pytest.approx(seat_sum, abs=1e-6)
    assert table_total == pytest.approx(table_sum, abs=1e-6)


SUMMARY_ROWS = {"coil-board parts": "Coil boards", "seat-board parts": "Seat boards",
                "tuning spares": "Tuning spares", "Pi-side small parts": "The Pi side",
                "fixings": "Tiles and mechanics", "bare boards": "Bare boards"}


def _summary() -> dict[str, tuple[float, float]]:
    """The summary table's rows: label (up to its first parenthesis) -> (a seat, a table)."""
    text = BOM_MD.read_text().split("## What the priced parts add up to")[1].split("\n## ")[0]
    rows = {}
    for line in text.splitlines():
        cells = [c.strip().strip("*") for c in line.strip().strip("|").split("|")]
        money = [m.group(1) for c in cells[1:] if (m := re.fullmatch(r"US\$([\d.]+)", c))]
        if len(cells) == 3 and len(money) == 2:
            label = cells[0].split(" (")[0].split(",")[0].strip("*")
            rows[label] = (float(money[0]), float(money[1]))
    return rows


def test_the_summary_is_the_totals() -> None:
    rows = _summary()
    assert set(rows) == set(SUMMARY_ROWS) | {"all priced parts", "parts and bare boards"}
    for label, section in SUMMARY_ROWS.items():
        assert rows[label] == pytest.approx(_total(section), abs=1e-6), label
    parts, bare = _parts_total(), _total("Bare boards")
    assert rows["all priced parts"] == pytest.approx(parts, abs=0.0051)
    assert rows["parts and bare boards"] == pytest.approx(
        (parts[0] + bare[0], parts[1] + bare[1]), abs=0.0051)


class _Edited:
    """bom.md with one figure changed, read where the tests read bom.md."""

    def __init__(self, old: str, new: str) -> None:
        text = BOM_MD.read_text()
        assert old in text
        self.text = text.replace(old, new)

    def read_text(self) -> str:
        return self.text


def _fixings_adds_up() -> None:
    test_every_priced_row_and_total_adds_up("Tiles and mechanics")


@pytest.mark.parametrize(("old", "new", "check"), [
    ("| fixings (M3 screws and spacers) | US$0.22 |",
     "| fixings (M3 screws and spacers) | US$0.23 |", test_the_summary_is_the_totals),
    ("| **all priced parts** | **US$133.56** |", "| **all priced parts** | **US$133.34** |",
     test_the_summary_is_the_totals),
    ("| **fixings parts priced** | | | | | | | **0.22** | **1.12** |",
     "| **fixings parts priced** | | | | | | | **0.22** | **1.22** |", _fixings_adds_up),
    ("| 1-99 | 0.0478 | 0.19 | 0.96 |", "| 1-99 | 0.0478 | 0.19 | 1.06 |", _fixings_adds_up),
])
def test_a_wrong_figure_fails(monkeypatch: pytest.MonkeyPatch, old: str, new: str,
                              check: Callable[[], None]) -> None:
    """bom.md with one figure ten cents (or one cent) off fails the check that covers it."""
    check()  # passes on bom.md as it is
    monkeypatch.setattr(sys.modules[__name__], "BOM_MD", _Edited(old, new))
    with pytest.raises(AssertionError):
        check()


# OSH Park's published 2-layer service (bom.md, source [O]): US$5 a square inch for a set of
# three copies; its published minimums and largest board; JLCPCB's published largest board.
OSH_SET_PER_SQ_IN, OSH_COPIES = 5.0, 3
OSH_MEDIUM_PER_SQ_IN, OSH_MEDIUM_EACH = 1.0, 10
MM2_PER_SQ_IN = 25.4 ** 2
MIL = 0.0254
OSH_MIN_TRACE, OSH_MIN_DRILL, OSH_MIN_RING, OSH_EDGE = 6 * MIL, 10 * MIL, 5 * MIL, 15 * MIL
OSH_MAX_MM, JLC_MAX_MM = (16 * 25.4, 22 * 25.4), (400.0, 500.0)
# Boards per seat and per table, counted from build.md's order (a seat: one rack, one meld
# strip, one seat board; a table: four seats, the discard and dora pads, the centre board).
BOARD_COUNTS = {"rack": (1, 4), "meld": (1, 4), "discard": (0, 1), "dora": (0, 1),
                "seat": (1, 5)}
BOARD_ROWS = {"rack": "rack", "meld strip": "meld", "discard pad": "discard",
              "dora pad": "dora", "seat board": "seat"}


def _board_mm() -> dict[str, tuple[float, float]]:
    design = json.loads((BOARDS / "design.json").read_text())
    sizes = {name: b["board_mm"] for name, b in design["boards"].items()}
    sizes["seat"] = design["seat"]["board_mm"]
    return {name: (float(w), float(h)) for name, (w, h) in sizes.items()}


def test_bare_boards_follow_the_published_price_per_square_inch() -> None:
    text = BOM_MD.read_text().split("## Bare boards")[1].split("\n## ")[0]
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 9 and cells[0] in BOARD_ROWS:
            rows[BOARD_ROWS[cells[0]]] = cells
    sizes = _board_mm()
    assert set(rows) == set(BOARD_COUNTS) == set(sizes)
    seat_sum = table_sum = 0.0
    for board, cells in rows.items():
        w, h = sizes[board]
        assert cells[1] == f"{w:g} x {h:g}", board
        area = w * h / MM2_PER_SQ_IN
        per_seat, per_table = BOARD_COUNTS[board]
        sets = -(-per_table // OSH_COPIES)
        assert float(cells[6]) == pytest.approx(OSH_SET_PER_SQ_IN * area, abs=0.0051), board
        set_price = float(cells[6])  # as quoted, in cents: the seat and table columns use it
        assert [float(c) for c in cells[2:]] == pytest.approx(
            [area, per_seat, per_table, sets, set_price, per_seat * set_price / OSH_COPIES,
             sets * set_price], abs=0.0051), board
        seat_sum += float(cells[7])
        table_sum += float(cells[8])
    assert _total("Bare boards") == pytest.approx((seat_sum, table_sum), abs=1e-6)
    # A seat ordered alone buys a set of each of its boards; the medium run (US$1 a square
    # inch, ten of each design) is quoted beside the sums.
    alone = sum(float(rows[b][6]) for b, (per_seat, _) in BOARD_COUNTS.items() if per_seat)
    assert f"a set of each, US${alone:.2f}" in text
    medium = sum(OSH_MEDIUM_PER_SQ_IN * OSH_MEDIUM_EACH * w * h / MM2_PER_SQ_IN
                 for w, h in sizes.values())
    assert f"ten of every design for US${medium:.2f}" in text


def _pcb(board: str) -> str:
    return (BOARDS / board / f"mjt_{board}.kicad_pcb").read_text()


@pytest.mark.parametrize("board", sorted(BOARD_COUNTS))
def test_every_board_is_inside_the_fabs_published_limits(board: str) -> None:
    pcb = _pcb(board)
    widths = [float(w) for w in re.findall(r"\(segment [^\n]*?\(width ([\d.]+)\)", pcb)]
    vias = [(float(s), float(d)) for s, d in
            re.findall(r"\(via [^\n]*?\(size ([\d.]+)\) \(drill ([\d.]+)\)", pcb)]
    plated = [(float(s), float(d)) for s, d in re.findall(
        r"\(pad \"[^\"]*\" thru_hole \w+ [^\n]*?\(size ([\d.]+) [\d.]+\) \(drill ([\d.]+)\)", pcb)]
    assert widths and vias and plated, f"{board}: tracks, vias and plated holes parsed"
    assert min(widths) >= OSH_MIN_TRACE
    holes = vias + plated
    assert min(d for _, d in holes) >= OSH_MIN_DRILL
    assert min((s - d) / 2 for s, d in holes) >= OSH_MIN_RING
    rules = json.loads((BOARDS / board / f"mjt_{board}.kicad_pro").read_text())
    drc = rules["board"]["design_settings"]["rules"]
    assert drc["min_clearance"] >= OSH_MIN_TRACE and drc["min_track_width"] >= OSH_MIN_TRACE
    assert drc["min_copper_edge_clearance"] >= OSH_EDGE
    size = sorted(_board_mm()[board])
    assert all(a <= b for a, b in zip(size, sorted(OSH_MAX_MM), strict=True))
    assert all(a <= b for a, b in zip(size, sorted(JLC_MAX_MM), strict=True))


# Datasheet figures, not the BOM's: MFRC522 Rev. 3.9 Table 1 (IDD(TVDD) max, IDDA, IDDD);
# TI PTH05000W (SLTS201C): 92 % at 5 V in, 4 A and 3.3 V out, 6 A rated; copper's resistivity.
READER_A = 0.100 + 0.010 + 0.0065
BUCK_EFFICIENCY, BUCK_RATED_A, RHO_CU = 0.92, 6.0, 0.0172


def test_the_power_parts_follow_from_the_datasheet_currents(boards: dict) -> None:
    text = BOM_MD.read_text().split("### Power parts")[1].split("\n## ")[0]
    bold = [float(x) for x in re.findall(r"\*\*([\d.]+) (?:A|mV)\*\*", text)]
    reader = COIL_ROWS["C11322"]
    seat = sum(boards[b][reader] for b in ("rack", "meld")) * READER_A
    centre = sum(boards[b][reader] for b in ("discard", "dora")) * READER_A
    seat_in, centre_in = (a * 3.3 / (BUCK_EFFICIENCY * 5.0) for a in (seat, centre))
    expected = [
        seat_in, centre_in, SEATS * seat_in + centre_in,
        1000 * seat * 2 * RHO_CU * 0.5 / 1.0,  # buck to J2: 0.5 m pair of 1.0 mm2
        1000 * seat_in * 2 * RHO_CU * 1.0 / 1.0,  # supply to buck: 1 m pair of 1.0 mm2
    ]
    assert bold == pytest.approx(expected, rel=0.02)
    assert seat < BUCK_RATED_A and SEATS * seat_in + centre_in < 20.0
    assert "C527500 PTH05000WAH" in BOM_MD.read_text()


def test_build_md_quotes_the_bom_totals() -> None:
    """build.md repeats the totals for a builder; a stale copy there fails here."""
    guide = (BOARDS.parent / "build.md").read_text()
    parts, bare = _parts_total(), _total("Bare boards")
    quoted = {float(x) for x in re.findall(r"US\$([\d.]+)", guide)}
    expected = {*parts, *bare, parts[0] + bare[0], parts[1] + bare[1]}
    assert {round(x, 2) for x in expected} == {round(x, 2) for x in quoted}


# The fixings (bom.md, "Fixings"): a self-tapping screw in every coil board's mounting hole,
# a spacer and a machine screw in every seat board's; the holes counted in the boards.
COIL_BOARD_SCREW, SEAT_SPACER, SEAT_SCREW = "C5222493", "C12373", "C357543"


def _holes(board: str) -> int:
    return _pcb(board).count('(footprint "MountingHole:MountingHole_3.2mm_M3"')


def test_the_fixings_follow_the_boards_mounting_holes() -> None:
    holes = {board: _holes(board) for board in BOARD_COUNTS}
    assert all(holes.values()), holes
    coil = {board: n for board, n in holes.items() if board != "seat"}
    per_seat = sum(n * BOARD_COUNTS[b][0] for b, n in coil.items())
    per_table = sum(n * BOARD_COUNTS[b][1] for b, n in coil.items())
    seat = (holes["seat"] * BOARD_COUNTS["seat"][0], holes["seat"] * BOARD_COUNTS["seat"][1])
    rows = _priced_rows("Tiles and mechanics")
    assert set(rows) == {COIL_BOARD_SCREW, SEAT_SPACER, SEAT_SCREW}
    assert (int(rows[COIL_BOARD_SCREW][-7]), int(rows[COIL_BOARD_SCREW][-6])) == (
        per_seat, per_table)
    for code in (SEAT_SPACER, SEAT_SCREW):
        assert (int(rows[code][-7]), int(rows[code][-6])) == seat, code
    text = BOM_MD.read_text()
    assert f"| {per_table} + {seat[1]} + {seat[1]} | M3 fixings:" in text
    assert f"rack 4 x {holes['rack']}, meld 4 x {holes['meld']}, discard {holes['discard']}, " \
        f"dora {holes['dora']}" in text


def test_every_unpriced_row_says_why_and_what_to_ask() -> None:
    """bom.md's "Not priced": no figure, a reason and a request in every row."""
    text = BOM_MD.read_text().split("## Not priced")[1].split("\n## ")[0]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    header, *body = rows
    assert header == ["what", "quantity a table", "why no price", "ask a supplier for"]
    assert len(body) >= 10
    for cells in body:
        assert len(cells) == 4 and all(cells), cells
        assert not re.search(r"US\$ ?\d", " ".join(cells)), f"a figure in an unpriced row: {cells}"
    assert "Shipping, tax and duty: not priced, depend on the destination" in text
