"""One coil's reader on the coil board: the MFRC522 (HVQFN32), its 27.12 MHz crystal and load
capacitors, supply decoupling, VMID capacitor, the receiver's R2 to VMID, and an 8-pin header
to the seat board (reader_pins.HEADER). It sits in the reader band at the board edge, below the
matching network of cell.py, and drives that network's L0 directly (TX1/TX2 on short tracks).

Geometry is in a local frame: the chip's centre at the origin, x across the strip, y towards
the coil (mm); ``Local`` maps it onto the board. Pins 9-16 (TX1, TX2, TVDD) face the coil;
the SPI pins face the header. A GND zone on the bottom layer covers the reader band.
"""

from __future__ import annotations

from dataclasses import dataclass

from cell import Mapper
from kicad_sexpr import Board, Footprint, Pad
from reader_pins import HEADER, cell_nets

YC = -8.0            # the chip centre in band coordinates (cell.py's band, v from the edge)
BAND = 22.0          # the reader band: band v from -BAND to 0 (layout.json reader_band_mm)
HDR_Y = -11.0        # the header row, local y
HDR_X = [-8.89 + 2.54 * i for i in range(8)]
P0603 = (0.95, 0.9, 0.775)        # pad across, pad along, pad offset (KiCad's 0603 land)
P0805 = (1.4, 1.025, 0.9125)
QFN_LIB = "mjt_boards:HVQFN-32-1EP_5x5mm_P0.5mm_EP3.1x3.1mm"
HDR_LIB = "Connector_PinHeader_2.54mm:PinHeader_1x08_P2.54mm_Vertical"


@dataclass(frozen=True)
class Local:
    m: Mapper
    s: float           # -1 where the cell is flipped (network above the coil): a 180 deg turn

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        return self.m(self.s * x, YC + y)


@dataclass(frozen=True)
class Values:
    """The reader's part values (README.md, "The reader on the board", gives their sources)."""
    c_load: str
    c_dec: str
    c_bulk: str
    c_vmid: str
    r2: str


QFN_PAD = (2.4375, 0.875, 0.25)    # centre from the chip's centre, length, width (mm)
QFN_EP = 3.1                       # exposed pad, square
QFN_PASTE = (1.03, 0.83)           # the exposed pad's 3 x 3 paste windows: pitch, size


def _qfn_pads(nets: dict[str, str]) -> list[tuple[str, float, float, float, float]]:
    """HVQFN32 (SOT617-1) pads (number, x, y, w, h), pin 1's side on the right (the chip turned
    180 deg from the data sheet's top view, so that TX1/TX2 face the coil). The land pattern is
    KiCad's Package_DFN_QFN:HVQFN-32-1EP_5x5mm_P0.5mm_EP3.1x3.1mm (IPC-7351 lands generated
    from NXP's SOT617-1 drawing; README.md, "The reader on the board", cites both)."""
    c, ln, wd = QFN_PAD
    pads = []
    for p in range(1, 33):
        k = (p - 1) % 8
        if p <= 8:
            pads.append((str(p), c, -1.75 + 0.5 * k, ln, wd))
        elif p <= 16:
            pads.append((str(p), 1.75 - 0.5 * k, c, wd, ln))
        elif p <= 24:
            pads.append((str(p), -c, 1.75 - 0.5 * k, ln, wd))
        else:
            pads.append((str(p), -1.75 + 0.5 * k, -c, wd, ln))
    pads.append(("33", 0.0, 0.0, QFN_EP, QFN_EP))
    _ = nets
    return pads


def _qfn_paste(board: Board, loc: Local) -> None:
    """The exposed pad carries copper and mask only; its paste is nine windows (about 64 % of
    the pad), as in KiCad's footprint, so the chip does not float on solder."""
    fp = board.footprints[-1]
    for p in fp.pads:
        if p.number == "33":
            p.layers = '"F.Cu" "F.Mask"'
            p.shape = "rect"
    pitch, size = QFN_PASTE
    cx, cy = fp.x, fp.y
    for i in (-1, 0, 1):
        for j in (-1, 0, 1):
            bx, by = loc(i * pitch, j * pitch)
            fp.pads.append(Pad("", "smd", round(bx - cx, 4), round(by - cy, 4), size, size,
                               layers='"F.Paste"'))


def _part(board: Board, loc: Local, ref: str, value: str, lib: str, at: tuple[float, float],
          pads: list[tuple[str, float, float, float, float, str]],
          court: tuple[float, float] | None = None, kind: str = "smd") -> None:
    cx, cy = loc(*at)
    out = []
    for num, px, py, w, h, net in pads:
        bx, by = loc(px, py)
        if kind == "smd":
            out.append(Pad(num, "smd", round(bx - cx, 4), round(by - cy, 4), w, h, net))
        else:
            out.append(Pad(num, "thru_hole", round(bx - cx, 4), round(by - cy, 4), w, h, net,
                           drill=1.0, shape="rect" if num == "1" else "circle",
                           layers='"*.Cu" "*.Mask"'))
    lines = []
    if court:
        hw, hh = court
        c = [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh), (-hw, -hh)]
        lines = [(a[0], a[1], b[0], b[1], "F.CrtYd", 0.05) for a, b in zip(c, c[1:], strict=False)]
    board.footprints.append(Footprint(ref, value, lib, cx, cy, out, lines,
                                      attr="smd" if kind == "smd" else "through_hole"))


def _two(board: Board, loc: Local, ref: str, value: str, lib: str, at: tuple[float, float],
         nets: tuple[str, str], vertical: bool, land: tuple[float, float, float] = P0603) -> None:
    """A 2-pad part, pad 1 at +y (vertical) or -x (horizontal) of ``at``."""
    across, along, off = land
    x, y = at
    w, h = (across, along) if vertical else (along, across)
    d1, d2 = ((0.0, off), (0.0, -off)) if vertical else ((-off, 0.0), (off, 0.0))
    pads = [("1", x + d1[0], y + d1[1], w, h, nets[0]), ("2", x + d2[0], y + d2[1], w, h, nets[1])]
    _part(board, loc, ref, value, lib, at, pads)


def _track(board: Board, loc: Local, pts: list[tuple[float, float]], net: str,
           width: float = 0.2, layer: str = "F.Cu") -> None:
    mapped = [loc(x, y) for x, y in pts]
    for (x1, y1), (x2, y2) in zip(mapped, mapped[1:], strict=False):
        board.segments.append((round(x1, 4), round(y1, 4), round(x2, 4), round(y2, 4), width,
                               layer, net))


def _via(board: Board, loc: Local, x: float, y: float, net: str) -> None:
    bx, by = loc(x, y)
    board.vias.append((round(bx, 4), round(by, 4), net))


def add_reader(board: Board, m: Mapper, slot: int, vals: Values) -> dict[str, str]:
    """The reader of one slot (1-based). Returns the chip's pad -> net map."""
    loc = Local(m, -1.0 if m.flip else 1.0)
    nets = cell_nets(slot, "A" if m.flip else "B")
    qfn = [(n, x, y, w, h, nets.get(n if n != "33" else "EP", ""))
           for n, x, y, w, h in _qfn_pads(nets)]
    _part(board, loc, f"U{slot}", "MFRC52202HN1", QFN_LIB, (0.0, 0.0), qfn, court=(3.15, 3.15))
    _qfn_paste(board, loc)
    _crystal(board, loc, slot, nets, vals)
    _supply(board, loc, slot, nets, vals)
    _receiver(board, loc, slot, nets, vals)
    _spi(board, loc, slot, nets)
    _header(board, loc, slot, nets)
    return nets


def _gnd_stubs(board: Board, loc: Local) -> None:
    """Ground pins into the exposed pad; the pad's vias to the bottom-layer GND zone."""
    for a, b in (((1.25, 2.45), (1.25, 1.2)), ((-0.75, 2.45), (-0.75, 1.2)),
                 ((2.45, -0.25), (1.2, -0.25)), ((2.45, 0.25), (1.2, 0.25)),
                 ((-2.45, 1.25), (-1.2, 1.25)), ((2.45, -1.75), (2.1, -1.75))):
        _track(board, loc, [a, b], "GND")
    _track(board, loc, [(2.1, -1.75), (1.3, -1.3)], "GND")
    for x, y in ((-0.6, -0.6), (0.6, -0.6), (-0.6, 0.6), (0.6, 0.6)):
        _via(board, loc, x, y, "GND")


def _crystal(board: Board, loc: Local, slot: int, nets: dict[str, str], vals: Values) -> None:
    osc_in, osc_out = nets["21"], nets["22"]
    pads = [("1", -8.1, -0.2, 1.4, 1.2, osc_out), ("2", -5.9, -0.2, 1.4, 1.2, "GND"),
            ("3", -5.9, 1.4, 1.4, 1.2, osc_in), ("4", -8.1, 1.4, 1.4, 1.2, "GND")]
    _part(board, loc, f"Y{slot}", "27.12MHz", "mjt_boards:Crystal_SMD_3225-4Pin_3.2x2.5mm",
          (-7.0, 0.6), pads, court=(2.05, 1.65))
    _track(board, loc, [(-2.45, -0.25), (-3.1, -0.25), (-4.25, 0.9), (-5.5, 0.9)], osc_in)
    _track(board, loc, [(-2.45, -0.75), (-3.1, -0.75), (-4.25, -1.9), (-8.1, -1.9), (-8.1, -0.2)],
           osc_out)
    base = 1000 + 10 * slot
    _two(board, loc, f"C{base + 1}", vals.c_load, "mjt_boards:C_0603", (-5.9, 3.8),
         ("GND", osc_in), True)
    _track(board, loc, [(-5.9, 1.4), (-5.9, 3.025)], osc_in)
    _two(board, loc, f"C{base + 2}", vals.c_load, "mjt_boards:C_0603", (-10.1, -0.2),
         ("GND", osc_out), False)
    _track(board, loc, [(-9.325, -0.2), (-8.1, -0.2)], osc_out)
    for a, b in (((-5.9, -0.2), (-5.9, -1.2)), ((-8.1, 1.4), (-8.1, 2.5)),
                 ((-5.9, 4.575), (-5.9, 5.6)), ((-10.875, -0.2), (-10.875, -1.3))):
        _track(board, loc, [a, b], "GND", 0.3)
        _via(board, loc, *b, "GND")


def _supply(board: Board, loc: Local, slot: int, nets: dict[str, str], vals: Values) -> None:
    """3V3: a rail right of the chip from the header; TVDD and AVDD cross under TX1 on the
    bottom layer; decoupling at TVDD (C_T), DVDD/PVDD/SVDD (C_D) and the header (bulk)."""
    v33 = nets["2"]
    base = 1000 + 10 * slot
    _gnd_stubs(board, loc)
    _track(board, loc, [(4.0, 3.0), (4.0, -7.0), (1.27, -9.73), (1.27, HDR_Y)], v33, 0.4)
    _track(board, loc, [(1.75, 2.45), (1.75, 3.0), (4.0, 3.0)], v33, 0.25)          # SVDD
    _track(board, loc, [(2.45, -1.25), (4.0, -1.25)], v33, 0.25)                     # PVDD
    _track(board, loc, [(2.45, -0.75), (4.0, -0.75)], v33, 0.25)                     # DVDD
    _track(board, loc, [(1.75, -2.45), (1.75, -3.3), (4.0, -5.55)], v33)             # EA = 1
    _track(board, loc, [(0.25, 2.45), (0.25, 6.0)], v33, 0.2)                        # TVDD
    _track(board, loc, [(0.25, 4.0), (1.3, 5.0)], v33, 0.25)
    _via(board, loc, 1.3, 5.0, v33)
    _track(board, loc, [(-1.25, 2.45), (-1.25, 2.95), (-1.45, 3.35)], v33, 0.25)     # AVDD
    _via(board, loc, -1.45, 3.35, v33)
    _track(board, loc, [(-1.45, 3.35), (0.3, 3.45), (1.3, 4.45), (1.3, 5.0), (4.0, 5.0),
                        (4.0, 3.6)], v33, 0.3, "B.Cu")
    _via(board, loc, 4.0, 3.6, v33)
    _track(board, loc, [(4.0, 3.6), (4.0, 3.0)], v33, 0.4)
    _two(board, loc, f"C{base + 3}", vals.c_dec, "mjt_boards:C_0603", (0.25, 6.775),
         ("GND", v33), True)
    _track(board, loc, [(0.25, 7.55), (0.25, 8.7)], "GND", 0.3)
    _via(board, loc, 0.25, 8.7, "GND")
    _two(board, loc, f"C{base + 4}", vals.c_dec, "mjt_boards:C_0603", (5.3, 0.275),
         ("GND", v33), True)
    _track(board, loc, [(4.0, -0.5), (5.3, -0.5)], v33, 0.3)
    _track(board, loc, [(5.3, 1.05), (5.3, 2.1)], "GND", 0.3)
    _via(board, loc, 5.3, 2.1, "GND")
    _two(board, loc, f"C{base + 5}", vals.c_bulk, "mjt_boards:C_0805", (5.6, -5.0),
         ("GND", v33), True, P0805)
    _track(board, loc, [(4.0, -5.9125), (5.6, -5.9125)], v33, 0.4)
    _track(board, loc, [(5.6, -4.0875), (5.6, -3.4)], "GND", 0.3)
    _via(board, loc, 5.6, -3.4, "GND")


def _receiver(board: Board, loc: Local, slot: int, nets: dict[str, str], vals: Values) -> None:
    """TX1/TX2 up to the network's L0 (cell.py: band (+-5, 8) = local y 16); RX from the
    network's R1 through the bottom layer; VMID's capacitor and R2 (RX to VMID)."""
    tx1, tx2, rx, vmid = nets["11"], nets["13"], nets["17"], nets["16"]
    _track(board, loc, [(0.75, 2.45), (0.75, 3.4), (1.05, 3.7)], tx1, 0.25)
    _track(board, loc, [(1.05, 3.7), (5.0, 7.65), (5.0, 16.0)], tx1, 0.4)
    _track(board, loc, [(-0.25, 2.45), (-0.25, 3.4), (-0.55, 3.7)], tx2, 0.25)
    _track(board, loc, [(-0.55, 3.7), (-5.0, 8.15), (-5.0, 16.0)], tx2, 0.4)
    _track(board, loc, [(-2.45, 1.75), (-3.4, 1.75)], rx)
    _via(board, loc, -3.4, 1.75, rx)
    _track(board, loc, [(-3.4, 1.75), (-3.4, 8.2), (-1.0, 10.6)], rx, 0.25, "B.Cu")
    _via(board, loc, -1.0, 10.6, rx)
    _track(board, loc, [(-1.0, 10.6), (-1.0, 18.0), (loc.s * 1.0, 20.0875)], rx, 0.25)
    base = 1000 + 10 * slot
    _two(board, loc, f"R{200 + slot}", vals.r2, "mjt_boards:R_0603", (-3.3, 2.6), (rx, vmid),
         False)
    _track(board, loc, [(-4.075, 2.6), (-3.4, 1.75)], rx)
    _track(board, loc, [(-1.75, 2.45), (-1.75, 2.8), (-2.525, 2.8)], vmid)
    _two(board, loc, f"C{base + 6}", vals.c_vmid, "mjt_boards:C_0603", (-3.3, 4.1),
         ("GND", vmid), False)
    _track(board, loc, [(-2.525, 2.6), (-2.525, 4.1)], vmid)
    _track(board, loc, [(-4.075, 4.1), (-4.3, 5.2)], "GND", 0.3)
    _via(board, loc, -4.3, 5.2, "GND")


def _spi(board: Board, loc: Local, slot: int, nets: dict[str, str]) -> None:
    """NSS, SCK, MOSI, MISO and NRSTPD to the header (nested, no crossings on the top layer;
    NRSTPD on the bottom)."""
    _track(board, loc, [(-2.45, -1.75), (-2.95, -1.75), (-2.95, -2.7), (HDR_X[0], -2.7),
                        (HDR_X[0], HDR_Y)], nets["24"])
    _track(board, loc, [(0.25, -2.45), (0.25, -3.5), (HDR_X[1], -3.5), (HDR_X[1], HDR_Y)],
           nets["29"])
    _track(board, loc, [(0.75, -2.45), (0.75, -4.3), (HDR_X[2], -4.3), (HDR_X[2], HDR_Y)],
           nets["30"])
    _track(board, loc, [(1.25, -2.45), (1.25, -5.1), (-0.32, -5.1), (-0.32, -6.85)],
           nets["31"])
    _miso_gate(board, loc, slot, nets)
    _track(board, loc, [(2.45, 0.75), (3.25, 0.75)], nets["6"])
    _via(board, loc, 3.25, 0.75, nets["6"])
    _track(board, loc, [(3.25, 0.75), (3.25, -7.0), (HDR_X[6], -10.1), (HDR_X[6], HDR_Y)],
           nets["6"], 0.25, "B.Cu")
    _ = slot


def _miso_gate(board: Board, loc: Local, slot: int, nets: dict[str, str]) -> None:
    """A 74LVC1G125 (SOT-23-5: 1 /OE, 2 A, 3 GND, 4 Y, 5 VCC) between the chip's MISO and the
    header: MISO is driven only while this reader's NSS is low (wiring.md, "MISO tri-state").
    Turned 180 deg: A faces the chip, Y the header; /OE is reached from NSS on the bottom
    layer."""
    miso_out, nss, v33 = f"S{slot}_MISO_OUT", nets["24"], nets["2"]
    cx, cy = -0.32, -8.0
    pads = [("1", cx + 0.95, cy + 1.15, 0.6, 1.0, nss), ("2", cx, cy + 1.15, 0.6, 1.0, nets["31"]),
            ("3", cx - 0.95, cy + 1.15, 0.6, 1.0, "GND"),
            ("4", cx - 0.95, cy - 1.15, 0.6, 1.0, miso_out),
            ("5", cx + 0.95, cy - 1.15, 0.6, 1.0, v33)]
    _part(board, loc, f"U{100 + slot}", "74LVC1G125", "mjt_boards:SOT-23-5", (cx, cy), pads)
    _track(board, loc, [(HDR_X[3], cy - 1.15), (HDR_X[3], HDR_Y)], miso_out)
    _via(board, loc, HDR_X[0], -6.0, nss)
    _track(board, loc, [(HDR_X[0], -6.0), (cx + 0.95, -6.0)], nss, 0.25, "B.Cu")
    _via(board, loc, cx + 0.95, -6.0, nss)
    _track(board, loc, [(cx + 0.95, -6.0), (cx + 0.95, cy + 1.15)], nss)
    _track(board, loc, [(cx - 0.95, cy + 1.15), (-2.2, cy + 1.15)], "GND", 0.3)
    _via(board, loc, -2.2, cy + 1.15, "GND")
    _track(board, loc, [(cx + 0.95, cy - 1.15), (1.85, cy - 1.15)], v33, 0.3)


def _header(board: Board, loc: Local, slot: int, nets: dict[str, str]) -> None:
    by_name = {"NSS": nets["24"], "SCK": nets["29"], "MOSI": nets["30"],
               "MISO": f"S{slot}_MISO_OUT",
               "3V3": nets["2"], "GND": "GND", "RST": nets["6"]}
    pads = [(str(i + 1), HDR_X[i], HDR_Y, 1.7, 1.7, by_name[name])
            for i, name in enumerate(HEADER)]
    _part(board, loc, f"J{slot}", "1x08 2.54mm", HDR_LIB, (0.0, HDR_Y), pads,
          court=(10.4, 1.35), kind="th")
