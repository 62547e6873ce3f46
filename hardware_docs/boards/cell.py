"""One antenna cell: the coil (a net-tie footprint of copper graphics) and its network.

Per coil (AN1445's symmetric circuit): L0 and C0 (EMC low pass), C1 (series), C2 plus a
trim position (parallel), Rq/2 (damping) on each side and the receiver tap Crx + R1 from
side A. The network sits in a 28 mm band beside the coil, the reader (reader.py) in the band
between it and the board edge: band coordinates (u across from the coil's centre, v from the
network band's outer edge towards the coil; the reader band is v < 0) are mapped onto the
board by ``Mapper``.
"""

from __future__ import annotations

from dataclasses import dataclass

from kicad_sexpr import Board, Footprint, Pad

BAND_EDGE = 32.0      # the coil's near edge in band coordinates
BUS_V = 4.0           # the GND bus
JOG = 2.0             # the spiral's step to the next turn
LEAD_U = 4.5          # the coil leads and the Rq/C1/L0 column
R0805 = (1.4, 1.025, 0.9125)   # pad across, pad along, pad offset (KiCad's 0805 land)


@dataclass(frozen=True)
class Mapper:
    """Band coordinates -> KiCad coordinates of the board (y down)."""
    cx: float
    near_edge: float      # board y (up) of the coil edge facing the band
    flip: bool            # the band lies above the coil
    height: float

    def __call__(self, u: float, v: float) -> tuple[float, float]:
        dy = v - BAND_EDGE
        y_up = self.near_edge - dy if self.flip else self.near_edge + dy
        return (self.cx + u, self.height - y_up)


@dataclass(frozen=True)
class Values:
    l0: str
    c0: str
    c1: str
    c2: str
    c2_trim: str
    rq: str
    crx: str
    r_rx: str


def _two_pad(board: Board, m: Mapper, ref: str, value: str, lib: str, u: float, v: float,
             nets: tuple[str, str], vertical: bool = True) -> None:
    """A 2-pad 0805 part; pad 1 at +v (towards the coil) or -u."""
    across, along, off = R0805
    p1 = (u, v + off) if vertical else (u - off, v)
    p2 = (u, v - off) if vertical else (u + off, v)
    cx, cy = m(u, v)
    pads = []
    for num, (pu, pv), net in (("1", p1, nets[0]), ("2", p2, nets[1])):
        px, py = m(pu, pv)
        w, h = (across, along) if vertical else (along, across)
        pads.append(Pad(num, "smd", round(px - cx, 4), round(py - cy, 4), w, h, net))
    hw, hh = (1.0, 1.7) if vertical else (1.7, 1.0)
    lines = [(-hw, -hh, hw, -hh, "F.CrtYd", 0.05), (hw, -hh, hw, hh, "F.CrtYd", 0.05),
             (hw, hh, -hw, hh, "F.CrtYd", 0.05), (-hw, hh, -hw, -hh, "F.CrtYd", 0.05)]
    board.footprints.append(Footprint(ref, value, lib, cx, cy, pads, lines))


def _track(board: Board, m: Mapper, pts: list[tuple[float, float]], net: str,
           width: float = 0.5, layer: str = "F.Cu") -> None:
    mapped = [m(u, v) for u, v in pts]
    for (x1, y1), (x2, y2) in zip(mapped, mapped[1:], strict=False):
        board.segments.append((x1, y1, x2, y2, width, layer, net))


def _via(board: Board, m: Mapper, u: float, v: float, net: str) -> None:
    x, y = m(u, v)
    board.vias.append((x, y, net))


def spiral(outer_u: float, outer_v: float, turns: int, trace: float, space: float,
           ) -> list[tuple[float, float]]:
    """Centre line of the spiral in coil-centred coordinates (v up, towards the far edge),
    from the outer lead (at u = -LEAD_U on the near side) to the inner end."""
    p = trace + space
    left0, right0 = -outer_u / 2 + trace / 2, outer_u / 2 - trace / 2
    near0, far0 = -outer_v / 2 + trace / 2, outer_v / 2 - trace / 2
    pts = [(-LEAD_U, near0)]
    for k in range(turns):
        le, ri, ne, fa = left0 + k * p, right0 - k * p, near0 + k * p, far0 - k * p
        pts += [(le, ne), (le, fa), (ri, fa), (ri, ne), (-LEAD_U + JOG, ne)]
        if k < turns - 1:
            pts.append((-LEAD_U, ne + p))
    pts.append((-LEAD_U + JOG, near0 + (turns - 1) * p + 1.2))
    return pts


def add_cell(board: Board, m: Mapper, slot: int, coil: dict[str, float], vals: Values) -> None:
    """The coil and network of one slot (1-based), nets named S<slot>_..."""
    s = f"S{slot}"
    n = {k: f"{s}_{k}" for k in ("TXA", "TXB", "RX", "NA_A", "NA_B", "NB_A", "NB_B",
                                  "ANT_A", "ANT_B", "RXC")}
    half_v = coil["outer_y_mm"] / 2
    centre_v = BAND_EDGE + half_v

    def cm(u: float, v: float) -> tuple[float, float]:     # coil frame -> band frame
        return (u, centre_v + v)
    pts = [cm(u, v) for u, v in spiral(coil["outer_x_mm"], coil["outer_y_mm"],
                                       int(coil["turns"]), coil["trace_mm"], coil["space_mm"])]
    cx, cy = m(0.0, centre_v)
    mapped = [m(u, v) for u, v in pts]
    lines = [(x1 - cx, y1 - cy, x2 - cx, y2 - cy, "F.Cu", coil["trace_mm"])
             for (x1, y1), (x2, y2) in zip(mapped, mapped[1:], strict=False)]
    ret_v = BAND_EDGE - 2.0
    inner, corner, ret = pts[-1], (pts[-1][0], ret_v), (LEAD_U, ret_v)
    _track(board, m, [inner, corner, ret], n["ANT_B"], 0.5, "B.Cu")
    lead_x, lead_y = mapped[0]
    pads = [Pad("1", "smd", lead_x - cx, lead_y - cy, coil["trace_mm"], coil["trace_mm"],
                n["ANT_A"], shape="rect", layers='"F.Cu"')]
    for num, point in (("2", inner), ("3", ret)):
        px, py = m(*point)
        pads.append(Pad(num, "thru_hole", px - cx, py - cy, 0.6, 0.6, n["ANT_B"], drill=0.3,
                        shape="circle", layers='"*.Cu"'))
    board.footprints.append(Footprint(
        f"L{slot}", f"coil {coil['outer_x_mm']:g}x{coil['outer_y_mm']:g} mm {int(coil['turns'])}T",
        "mjt_boards:NetTie_PCB_coil", cx, cy, pads, lines,
        descr="PCB antenna coil of one slot (hardware_docs/boards/README.md)",
        tags="net tie", attr=""))
    _network(board, m, slot, n, vals, lead_v=pts[0][1])


def _network(board: Board, m: Mapper, slot: int, n: dict[str, str], v: Values,
             lead_v: float) -> None:
    gnd = "GND"
    for side, sg in (("A", -1.0), ("B", 1.0)):
        u = sg * LEAD_U
        ant, nb, na = n[f"ANT_{side}"], n[f"NB_{side}"], n[f"NA_{side}"]
        tx = n[f"TX{side}"]
        k = 0 if side == "A" else 1
        _two_pad(board, m, f"R{2 * slot - 1 + k}", v.rq, "mjt_boards:R_0805", u, 25.0, (ant, nb))
        _two_pad(board, m, f"C{10 * slot - 9 + k}", v.c1, "mjt_boards:C_0805", u, 19.5, (nb, na))
        _two_pad(board, m, f"C{10 * slot - 7 + k}", v.c2, "mjt_boards:C_0805", sg * 8, 19.5,
                 (nb, gnd))
        _two_pad(board, m, f"C{10 * slot - 5 + k}", v.c2_trim, "mjt_boards:C_0805", sg * 11, 19.5,
                 (nb, gnd))
        _two_pad(board, m, f"L{100 + 2 * slot - 1 + k}", v.l0, "mjt_boards:L_0805", u, 14.5,
                 (na, tx))
        _two_pad(board, m, f"C{10 * slot - 3 + k}", v.c0, "mjt_boards:C_0805", sg * 6.5, 13.5,
                 (na, gnd))
        if side == "A":
            _track(board, m, [(u, lead_v), (u, 25.9125)], ant, 0.4)
        else:
            _track(board, m, [(u, BAND_EDGE - 2.0), (u, 25.9125)], ant)
        _track(board, m, [(u, 24.0875), (u, 20.4125)], nb)
        _track(board, m, [(u, 22.25), (sg * 11, 22.25)], nb)
        for cu in (8, 11):
            _track(board, m, [(sg * cu, 22.25), (sg * cu, 20.4125)], nb)
            _track(board, m, [(sg * cu, 18.5875), (sg * cu, 17.3)], gnd)
            _via(board, m, sg * cu, 17.3, gnd)
            _track(board, m, [(sg * cu, 17.3), (sg * cu, BUS_V)], gnd, 0.6, "B.Cu")
        _track(board, m, [(u, 18.5875), (u, 15.4125)], na)
        _track(board, m, [(u, 16.2), (sg * 6.5, 16.2), (sg * 6.5, 14.4125)], na)
        _track(board, m, [(sg * 6.5, 12.5875), (sg * 6.5, 11.2)], gnd)
        _via(board, m, sg * 6.5, 11.2, gnd)
        _track(board, m, [(sg * 6.5, 11.2), (sg * 8, 11.2)], gnd, 0.6, "B.Cu")
        _track(board, m, [(u, 13.5875), (u, 9.6), (sg * 5, 9.1), (sg * 5, 8.0)], tx, 0.4)
    _rx_tap(board, m, slot, n, v)


def _rx_tap(board: Board, m: Mapper, slot: int, n: dict[str, str], v: Values) -> None:
    """Crx and R1 from the TX1 side's L0/C0 node to the reader's RX pin."""
    _two_pad(board, m, f"C{10 * slot - 1}", v.crx, "mjt_boards:C_0805", -1.5, 14.0,
             (n["NA_A"], n["RXC"]))
    _two_pad(board, m, f"R{100 + slot}", v.r_rx, "mjt_boards:R_0805", 1.0, 13.0,
             (n["RXC"], n["RX"]))
    _track(board, m, [(-LEAD_U, 16.2), (-1.5, 16.2), (-1.5, 14.9125)], n["NA_A"])
    _track(board, m, [(-1.5, 13.0875), (1.0, 13.9125)], n["RXC"])
