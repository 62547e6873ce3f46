"""The seat board: the Raspberry Pi Pico, the chip-select decoders, the SPI buffers with their
33 ohm series resistors, the group MISO gates, the 3.3 V power entry and one 8-pin header per
reader (the coil boards' cells plug in with 8-way cables). Generated, placed on a 0.635 mm grid
and routed by router.py; README.md ("The seat board") explains the design.

Pin numbers: Raspberry Pi Pico datasheet (pinout, section 2.1, 40 pins, castellated / 2.54 mm
holes, rows 17.78 mm apart); 74HC138 and 74LVC125A data sheets (pinning, SO16 / SO14).
The firmware's pins (firmware_bridge/firmware/hal.py) decide which GPIO does what.
"""

from __future__ import annotations

from dataclasses import dataclass

from kicad_sexpr import Board, Footprint, Pad
from router import PITCH, Grid

G = PITCH
CHANNELS = 34
PER_DECODER = 8
# The firmware's pins (hal.py): SPI0 SCK 18, MOSI 19, MISO 16; reset 20; decoder address
# 2-4, decoder enables 5-9 (active low); LED 14, buzzer 15.
GPIO = {"SCK": 18, "MOSI": 19, "MISO": 16, "RST": 20, "A0": 2, "A1": 3, "A2": 4,
        "EN0": 5, "EN1": 6, "EN2": 7, "EN3": 8, "EN4": 9, "LED": 14, "BUZ": 15}
# Raspberry Pi Pico pin -> GPIO number (datasheet pinout); the GND pins used here.
PICO_GPIO = {1: 0, 2: 1, 4: 2, 5: 3, 6: 4, 7: 5, 9: 6, 10: 7, 11: 8, 12: 9, 14: 10, 15: 11,
             16: 12, 17: 13, 19: 14, 20: 15, 21: 16, 22: 17, 24: 18, 25: 19, 26: 20, 27: 21,
             29: 22, 31: 26, 32: 27, 34: 28}
PICO_NAMES = {3: "GND", 8: "GND", 13: "GND", 18: "GND", 23: "GND", 28: "GND", 33: "AGND",
              30: "RUN", 35: "ADC_VREF", 36: "3V3_OUT", 37: "3V3_EN", 38: "GND", 39: "VSYS",
              40: "VBUS"}
PICO_GND_USED = (3, 23, 38)
# 74HC138 (SO16): 1 A0, 2 A1, 3 A2, 4 /E1, 5 /E2, 6 E3, 7 /Y7, 8 GND, 9 /Y6 ... 15 /Y0, 16 VCC
DEC_PINS = {1: "A0", 2: "A1", 3: "A2", 4: "~{E1}", 5: "~{E2}", 6: "E3", 7: "~{Y7}", 8: "GND",
            9: "~{Y6}", 10: "~{Y5}", 11: "~{Y4}", 12: "~{Y3}", 13: "~{Y2}", 14: "~{Y1}",
            15: "~{Y0}", 16: "VCC"}
# 74LVC125A (SO14): 1 /1OE, 2 1A, 3 1Y, 4 /2OE, 5 2A, 6 2Y, 7 GND, 8 3Y, 9 3A, 10 /3OE,
# 11 4Y, 12 4A, 13 /4OE, 14 VCC
BUF_PINS = {1: "~{1OE}", 2: "1A", 3: "1Y", 4: "~{2OE}", 5: "2A", 6: "2Y", 7: "GND", 8: "3Y",
            9: "3A", 10: "~{3OE}", 11: "4Y", 12: "4A", 13: "~{4OE}", 14: "VCC"}
HEADER = ("NSS", "SCK", "MOSI", "MISO", "3V3", "GND", "RST", "GND")   # reader_pins.HEADER

HDR_Y1 = 72          # header pin 1, grid units
GROUP_X0 = 96        # first header of group 0, grid units
HDR_STEP = 8         # 5.08 mm between headers
IC_Y = 38            # the decoders and buffers
GND_RAIL, V33_RAIL = 50, 54     # bottom-layer rails between the chips and the resistors
PART_Y = 62          # series resistors and capacitors
GROUP_GAP = 12


@dataclass(frozen=True)
class SeatValues:
    r_series: str = "33R"
    r_pull: str = "10k"
    c_dec: str = "100nF"
    c_bulk: str = "100uF"


def _g(n: float) -> float:
    return round(n * G, 4)


def _fp(board: Board, ref: str, value: str, lib: str, cx: int, cy: int,
        pads: list[tuple[str, int, int, float, float, str, bool]],
        court: tuple[float, float] | None = None) -> None:
    """A footprint at grid (cx, cy); pads at grid offsets (number, dx, dy, w, h, net, through)."""
    out = []
    for num, dx, dy, w, h, net, through in pads:
        if through:
            out.append(Pad(num, "thru_hole", _g(dx), _g(dy), w, h, net, drill=1.0 if w < 2 else
                           1.3, shape="rect" if num == "1" else "circle",
                           layers='"*.Cu" "*.Mask"'))
        else:
            out.append(Pad(num, "smd", _g(dx), _g(dy), w, h, net))
    lines = []
    if court:
        hw, hh = court
        c = [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh), (-hw, -hh)]
        lines = [(a[0], a[1], b[0], b[1], "F.CrtYd", 0.05) for a, b in zip(c, c[1:], strict=False)]
    board.footprints.append(Footprint(ref, value, lib, _g(cx), _g(cy), out, lines,
                                      attr="through_hole" if any(p[6] for p in pads) else "smd"))


def _soic(n: int, nets: dict[int, str], turn: bool = False
          ) -> list[tuple[str, int, int, float, float, str, bool]]:
    """SOIC-n turned so that pins 1..n/2 run left to right along the bottom row and the rest
    right to left along the top (a 90 deg turn of the data sheet's view: never mirrored);
    ``turn``: 180 deg more (pins 1..n/2 along the top, right to left)."""
    half = n // 2
    pads = []
    sg = -1 if turn else 1
    for p in range(1, n + 1):
        k = p - 1 if p <= half else n - p
        dx = sg * (-(half - 1) + 2 * k)
        dy = sg * (4 if p <= half else -4)
        pads.append((str(p), dx, dy, 0.6, 1.95, nets.get(p, ""), False))
    return pads


def _two(board: Board, ref: str, value: str, cx: int, cy: int, nets: tuple[str, str],
         vertical: bool = True, big: bool = False) -> None:
    """A 1206 (or 1210: ``big``) part, pads 2.54 mm apart, pad 1 at -y (vertical) or -x."""
    w, h = (1.8 if big else 1.6), 1.2
    d = [("1", 0, -2), ("2", 0, 2)] if vertical else [("1", -2, 0), ("2", 2, 0)]
    pads = [(num, dx, dy, w if vertical else h, h if vertical else w, net, False)
            for (num, dx, dy), net in zip(d, nets, strict=True)]
    lib = "mjt_boards:C_1210" if big else ("mjt_boards:R_1206" if ref[0] == "R"
                                           else "mjt_boards:C_1206")
    _fp(board, ref, value, lib, cx, cy, pads)


def _pico(board: Board, cx: int, cy: int) -> None:
    nets = {}
    for pin, gp in PICO_GPIO.items():
        name = next((k for k, v in GPIO.items() if v == gp), "")
        nets[pin] = {"MISO": "MISO"}.get(name, name)
    for pin in PICO_GND_USED:
        nets[pin] = "GND"
    pads = []
    for p in range(1, 41):
        k = p - 1 if p <= 20 else 40 - p
        pads.append((str(p), -38 + 4 * k, 14 if p <= 20 else -14, 1.7, 1.7, nets.get(p, ""), True))
    _fp(board, "U1", "Raspberry_Pi_Pico", "mjt_boards:RaspberryPi_Pico_TH", cx, cy, pads,
        court=(25.75, 10.75))


def group_channels(k: int) -> list[int]:
    return [c for c in range(PER_DECODER * k, PER_DECODER * (k + 1)) if c < CHANNELS]


def _group(board: Board, k: int, x0: int, vals: SeatValues) -> tuple[int, int]:
    """Decoder k, its buffer and gates, and the headers of channels 8k..8k+7 (x0: first
    header, grid units). Returns the x of the group's first and last header."""
    chans = group_channels(k)
    en, s = f"EN{k}", f"G{k}"
    dec = {1: "A0", 2: "A1", 3: "A2", 4: en, 5: "GND", 6: "3V3", 8: "GND", 16: "3V3"}
    for i, ch in enumerate(chans):
        dec[15 - i if i < 7 else 7] = f"NSS{ch}"
    dx = x0 + 8
    _fp(board, f"U{10 + k}", "74HC138", "mjt_boards:SOIC-16_3.9x9.9mm_P1.27mm", dx, IC_Y,
        _soic(16, dec, turn=True), court=(5.6, 3.8))
    buf = {1: "GND", 2: "SCK", 3: f"{s}_SCK_R", 4: "GND", 5: "MOSI", 6: f"{s}_MOSI_R", 7: "GND",
           8: f"{s}_RST_R", 9: "RST", 10: "GND", 11: f"{s}_MISO_R", 12: f"{s}_MISO", 13: en,
           14: "3V3"}
    bx = x0 + 30
    _fp(board, f"U{20 + k}", "74LVC125", "mjt_boards:SOIC-14_3.9x8.7mm_P1.27mm", bx, IC_Y,
        _soic(14, buf), court=(5.0, 3.8))
    r = 10 * k
    _two(board, f"R{r + 1}", vals.r_series, x0 + 24, PART_Y, (f"{s}_SCK_R", f"{s}_SCK"))
    _two(board, f"R{r + 2}", vals.r_series, x0 + 28, PART_Y, (f"{s}_MOSI_R", f"{s}_MOSI"))
    _two(board, f"R{r + 3}", vals.r_series, x0 + 32, PART_Y, (f"{s}_RST_R", f"{s}_RST"))
    _two(board, f"R{r + 4}", vals.r_series, x0 + 36, PART_Y, ("MISO", f"{s}_MISO_R"))
    _two(board, f"R{r + 5}", vals.r_pull, x0 + 40, PART_Y, ("3V3", f"{s}_MISO"))
    _two(board, f"C{r + 1}", vals.c_dec, x0 + 4, PART_Y, ("3V3", "GND"))
    _two(board, f"C{r + 2}", vals.c_dec, x0 + 18, PART_Y, ("3V3", "GND"))
    _two(board, f"C{r + 3}", vals.c_bulk, x0 + 48, PART_Y, ("3V3", "GND"), big=True)
    xs = []
    for i, ch in enumerate(chans):
        hx = x0 + HDR_STEP * i
        nets = {"NSS": f"NSS{ch}", "SCK": f"{s}_SCK", "MOSI": f"{s}_MOSI", "MISO": f"{s}_MISO",
                "3V3": "3V3", "GND": "GND", "RST": f"{s}_RST"}
        pads = [(str(j + 1), 0, 4 * j, 1.7, 1.7, nets[name], True) for j, name in enumerate(HEADER)]
        _fp(board, f"J{100 + ch}", "1x08 2.54mm",
            "Connector_PinHeader_2.54mm:PinHeader_1x08_P2.54mm_Vertical", hx, HDR_Y1, pads,
            court=(1.35, 1.35 + 0.0))
        xs.append(hx)
    return xs[0], xs[-1]


def _row_y(pin: int) -> int:
    return HDR_Y1 + 4 * (pin - 1)


def build_seat(vals: SeatValues = SeatValues()) -> tuple[Board, list[str]]:
    """The placed and routed seat board; the nets the router could not finish (none: DRC)."""
    groups = (CHANNELS + PER_DECODER - 1) // PER_DECODER
    x_term = GROUP_X0 + (groups - 1) * (PER_DECODER * HDR_STEP + GROUP_GAP) + 60
    width, height = _g(x_term + 12), _g(_row_y(8) + 6)
    board = Board("seat", width, height)
    _pico(board, 42, 20)
    for i in range(groups):
        _two(board, f"R{90 + i}", vals.r_pull, 30 + 6 * i, 50, ("3V3", f"EN{i}"))
    _two(board, f"R{90 + groups}", vals.r_pull, 30 + 6 * groups, 50, ("RST", "GND"))
    _fp(board, "J1", "1x03 2.54mm", "Connector_PinHeader_2.54mm:PinHeader_1x03_P2.54mm_Vertical",
        8, 60, [(str(j + 1), 0, 4 * j, 1.7, 1.7, n, True)
                for j, n in enumerate(("LED", "BUZ", "GND"))])
    _fp(board, "J2", "3V3 IN 5A", "TerminalBlock:TerminalBlock_1x02_P5.08mm", x_term,
        _row_y(5), [("1", 0, 0, 2.6, 2.6, "3V3", True), ("2", 0, 8, 2.6, 2.6, "GND", True)])
    for i, (hx, hy) in enumerate(((5, _row_y(8) + 1), (x_term + 6, 6), (GROUP_X0 + 66, 6),
                                  (GROUP_X0 + 218, 6))):
        _fp(board, f"H{i + 1}", "MountingHole_3.2mm_M3", "MountingHole:MountingHole_3.2mm_M3",
            hx, hy, [("", 0, 0, 3.2, 3.2, "", True)])
        hole = board.footprints[-1]
        hole.attr = "exclude_from_pos_files exclude_from_bom"
        hole.pads[0] = Pad("", "np_thru_hole", 0, 0, 3.2, 3.2, drill=3.2, shape="circle",
                           layers='"*.Cu" "*.Mask"')
    fixed: list[tuple[str, int, float, float, float, float, float]] = []
    spans = []
    for k in range(groups):
        a, b = _group(board, k, GROUP_X0 + k * (PER_DECODER * HDR_STEP + GROUP_GAP), vals)
        spans.append((a, b))
        for pin, name in ((2, "SCK"), (3, "MOSI"), (4, "MISO"), (7, "RST")):
            fixed.append((f"G{k}_{name}", 1, _g(a), _g(_row_y(pin)), _g(b), _g(_row_y(pin)), 0.4))
    first = spans[0][0] - 12
    gnd_x = x_term + 6
    fixed += [("3V3", 1, _g(first + 2), _g(_row_y(5)), _g(x_term), _g(_row_y(5)), 1.5),
              ("GND", 1, _g(first + 6), _g(_row_y(6)), _g(gnd_x), _g(_row_y(6)), 1.5),
              ("GND", 1, _g(first + 12), _g(_row_y(8)), _g(gnd_x), _g(_row_y(8)), 1.5),
              ("GND", 1, _g(gnd_x), _g(_row_y(6)), _g(gnd_x), _g(_row_y(8)), 1.5),
              ("GND", 1, _g(x_term), _g(_row_y(7)), _g(gnd_x), _g(_row_y(7)), 1.5)]
    left, right = first, spans[-1][1] + 8
    fixed += [("GND", 1, _g(left), _g(GND_RAIL), _g(right), _g(GND_RAIL), 1.0),
              ("3V3", 1, _g(left), _g(V33_RAIL), _g(right), _g(V33_RAIL), 1.0)]
    vias = []
    for a, _b in spans:
        fixed += [("GND", 0, _g(a - 6), _g(GND_RAIL), _g(a - 6), _g(_row_y(6)), 0.8),
                  ("3V3", 0, _g(a - 10), _g(V33_RAIL), _g(a - 10), _g(_row_y(5)), 0.8)]
        vias += [("GND", a - 6, GND_RAIL), ("GND", a - 6, _row_y(6)),
                 ("3V3", a - 10, V33_RAIL), ("3V3", a - 10, _row_y(5))]
    for net, lay, x1, y1, x2, y2, w in fixed:
        board.segments.append((x1, y1, x2, y2, w, "B.Cu" if lay else "F.Cu", net))
    board.vias += [(_g(x), _g(y), net) for net, x, y in vias]
    return board, _route_all(board, fixed, vias)


def _route_all(board: Board, fixed: list[tuple[str, int, float, float, float, float, float]],
               vias: list[tuple[str, int, int]]) -> list[str]:
    names = board.nets()
    ids = {n: i + 1 for i, n in enumerate(names)}
    grid = Grid(board.width, board.height)
    pads: dict[str, list[set[tuple[int, int, int]]]] = {}
    for fp in board.footprints:
        for p in fp.pads:
            x, y = round(fp.x + p.x, 4), round(fp.y + p.y, 4)
            through = p.kind != "smd"
            grid.add_pad(ids.get(p.net, 0), x, y, p.w, p.h, through)
            if p.net:
                ix, iy = grid.cell(x, y)
                cells = {(lay, c[0], c[1]) for c in grid._rect(x, y, p.w / 2, p.h / 2) or
                         [(ix, iy)] for lay in ((0, 1) if through else (0,))}
                pads.setdefault(p.net, []).append(cells)
    trees: dict[str, set[tuple[int, int, int]]] = {}
    for net, lay, x1, y1, x2, y2, w in fixed:
        trees.setdefault(net, set()).update(grid.add_track(ids[net], lay, x1, y1, x2, y2, w))
    for net, x, y in vias:
        grid._block_via(ids[net], x, y)
    for net, cells in pads.items():
        tree = trees.setdefault(net, set())
        for pad in cells:
            if pad & tree:
                tree |= pad
        if not tree:
            tree |= cells[0]
    order = sorted(pads, key=lambda n: (n not in ("GND", "3V3"), _spread(pads[n])))
    failed = []
    for net in order:
        todo = [c for c in pads[net] if not c & trees[net]]
        while todo:
            todo.sort(key=lambda c: _dist(c, trees[net]))
            target = todo.pop(0)
            if target & trees[net]:
                continue
            path = grid.route(ids[net], trees[net], target)
            if path is None:
                failed.append(f"{net}@{sorted(target)[0]}")
                continue
            segs, vias = grid.commit(ids[net], path)
            trees[net] |= set(path) | target
            board.segments += [(a, b, c, d, 0.25, lay, net) for a, b, c, d, lay in segs]
            board.vias += [(x, y, net) for x, y in vias]
    return failed


def _spread(cells: list[set[tuple[int, int, int]]]) -> int:
    xs = [c[1] for s in cells for c in s]
    ys = [c[2] for s in cells for c in s]
    return max(xs) - min(xs) + max(ys) - min(ys)


def _dist(cells: set[tuple[int, int, int]], tree: set[tuple[int, int, int]]) -> int:
    a = next(iter(cells))
    sample = list(tree)[:: max(1, len(tree) // 200)]
    return min(abs(a[1] - b[1]) + abs(a[2] - b[2]) for b in sample)


def symbol_pins() -> dict[str, list[tuple[str, str]]]:
    """The schematic symbols' pins (schematic.MULTI's form) of the seat board's chips."""
    pico = []
    for p in range(1, 41):
        name = PICO_NAMES.get(p) or f"GP{PICO_GPIO[p]}"
        pico.append((str(p), name))
    return {"Raspberry_Pi_Pico": pico,
            "74HC138": [(str(n), s) for n, s in sorted(DEC_PINS.items())],
            "74LVC125": [(str(n), s) for n, s in sorted(BUF_PINS.items())]}
