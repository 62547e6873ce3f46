"""The coil model and the matching network of one MFRC522 antenna (pure Python, no I/O).

Sources of the formulas (hardware_docs/boards/README.md cites them in full):

- Inductance of a planar rectangular coil, NXP AN1445 "Antenna design guide for MFRC52x,
  PN51x, PN53x" (section "Antenna coil: rectangular"), after Grover:
  L = mu0/pi * (x1 + x2 - x3 + x4) * N**p with p = 1.8 for PCB coils.
- Cross-check: the current-sheet ("modified Wheeler" family) expression of Mohan, del Mar
  Hershenson, Boyd and Lee, "Simple accurate expressions for planar spiral inductances"
  (IEEE JSSC 34(10), 1999), square coefficients c1..c4, applied to the coil's mean side.
- Symmetric matching as AN1445 draws it: TX1/TX2 -> EMC low pass L0/C0 -> series C1 ->
  parallel C2 to ground at each antenna end -> damping resistor Rq/2 in each antenna lead.
  C1 and C2 are found here by solving that circuit's impedance for the target (no table).
- Field of a rectangular loop: Biot-Savart summed over the straight segments of each turn.
- Mutual inductance of two coils side by side: Neumann's double line integral, numerically.
"""

from __future__ import annotations

import cmath
import math
from dataclasses import dataclass

MU0 = 4e-7 * math.pi
RHO_CU = 1.72e-8          # ohm m, copper at 20 C
F_CARRIER = 13.56e6       # Hz, ISO/IEC 14443
OMEGA = 2 * math.pi * F_CARRIER


@dataclass(frozen=True)
class Coil:
    outer_x: float    # mm
    outer_y: float    # mm
    turns: int
    trace: float      # mm
    space: float      # mm
    copper_um: float = 35.0   # 1 oz

    @property
    def pitch(self) -> float:
        return self.trace + self.space


def inductance_nxp(c: Coil) -> float:
    """AN1445's rectangular-coil formula (henry)."""
    a_avg = (c.outer_x - c.turns * c.pitch) * 1e-3
    b_avg = (c.outer_y - c.turns * c.pitch) * 1e-3
    d = 2 * (c.copper_um * 1e-6 + c.trace * 1e-3) / math.pi
    diag = math.hypot(a_avg, b_avg)
    x1 = a_avg * math.log(2 * a_avg * b_avg / (d * (a_avg + diag)))
    x2 = b_avg * math.log(2 * a_avg * b_avg / (d * (b_avg + diag)))
    x3 = 2 * (a_avg + b_avg - diag)
    x4 = (a_avg + b_avg) / 4
    return MU0 / math.pi * (x1 + x2 - x3 + x4) * c.turns ** 1.8


def inductance_current_sheet(c: Coil) -> float:
    """Mohan et al. 1999, current-sheet expression with the square coefficients (henry),
    applied to a square of the coil's mean outer side (a cross-check, not the design value)."""
    d_out = (c.outer_x + c.outer_y) / 2 * 1e-3
    d_in = d_out - 2 * (c.turns * c.pitch - c.space) * 1e-3
    d_avg = (d_out + d_in) / 2
    fill = (d_out - d_in) / (d_out + d_in)
    c1, c2, c3, c4 = 1.27, 2.07, 0.18, 0.13
    return MU0 * c.turns ** 2 * d_avg * c1 / 2 * (math.log(c2 / fill) + c3 * fill + c4 * fill ** 2)


def trace_length(c: Coil) -> float:
    """Total length of the spiral (m), turn k inset by k pitches."""
    total = 0.0
    for k in range(c.turns):
        inset = 2 * k * c.pitch
        total += 2 * ((c.outer_x - inset) + (c.outer_y - inset))
    return total * 1e-3


def resistance_ac(c: Coil) -> float:
    """Series resistance at 13.56 MHz: the current flows in one skin depth on each face."""
    skin = math.sqrt(RHO_CU / (math.pi * F_CARRIER * MU0))
    t = min(c.copper_um * 1e-6, 2 * skin)
    return RHO_CU * trace_length(c) / (c.trace * 1e-3 * t)


@dataclass(frozen=True)
class Matching:
    l0: float        # H, EMC filter inductor (each side)
    c0: float        # F, EMC filter capacitor (each side to ground)
    c1: float        # F, series capacitor (each side)
    c2: float        # F, parallel capacitor (each antenna end to ground)
    rq_half: float   # ohm, damping resistor in each antenna lead
    q: float         # loaded quality factor of the antenna
    z_target: float  # ohm, differential impedance TX1-TX2 aimed at


def _z_half(l0: float, c0: float, c1: float, c2: float, r_half: float, l_half: float,
            ca_half: float) -> complex:
    """Impedance of one half of the symmetric circuit, TX pin to the virtual ground."""
    z_ant = complex(r_half, OMEGA * l_half)
    y_b = 1 / z_ant + 1j * OMEGA * (c2 + ca_half)
    z_a_branch = 1 / (1j * OMEGA * c1) + 1 / y_b
    y_a = 1 / z_a_branch + 1j * OMEGA * c0
    return 1j * OMEGA * l0 + 1 / y_a


def impedance_diff(l0: float, c0: float, c1: float, c2: float, r_ant: float, l_ant: float,
                   c_ant: float = 0.0) -> complex:
    """Differential impedance between TX1 and TX2 (ohm) for an antenna of r_ant, l_ant."""
    return 2 * _z_half(l0, c0, c1, c2, r_ant / 2, l_ant / 2, 2 * c_ant)


def solve_matching(l_ant: float, r_coil: float, *, z_target: float = 40.0, q: float = 25.0,
                   l0: float = 560e-9, f_emc: float = 14.4e6, c_ant: float = 3e-12) -> Matching:
    """C1, C2 (and C0, Rq) so that TX1-TX2 sees z_target ohm, real, at 13.56 MHz.

    Worked backwards through the half circuit: the EMC filter fixes what the C1 branch must
    present; C2 sets that branch's real part, C1 then cancels its reactance."""
    c0 = 1 / ((2 * math.pi * f_emc) ** 2 * l0)
    r_total = OMEGA * l_ant / q
    rq_half = max(0.0, (r_total - r_coil) / 2)
    z_a = complex(z_target / 2, -OMEGA * l0)
    z_branch = 1 / (1 / z_a - 1j * OMEGA * c0)
    z_ant = complex(r_total / 2, OMEGA * l_ant / 2)
    y_ant = 1 / z_ant
    g, b_ant = y_ant.real, -y_ant.imag
    root = g / z_branch.real - g * g
    if z_branch.real <= 0 or root < 0:
        raise ValueError(f"no matching for L={l_ant:.3g} H to {z_target} ohm: the EMC filter "
                         "leaves no positive real part; change L0, f_emc or the target")
    c_total = (b_ant - math.sqrt(root)) / OMEGA
    c2 = c_total - 2 * c_ant
    z_b = 1 / complex(g, OMEGA * c_total - b_ant)
    if c2 <= 0 or z_b.imag <= z_branch.imag:
        raise ValueError(f"no matching for L={l_ant:.3g} H to {z_target} ohm: C2 or C1 "
                         "would be negative; use more turns or a lower target")
    c1 = 1 / (OMEGA * (z_b.imag - z_branch.imag))
    return Matching(l0, c0, c1, c2, rq_half, q, z_target)


def e_series(value: float, series: tuple[float, ...] = (
        1.0, 1.2, 1.5, 1.8, 2.2, 2.7, 3.3, 3.9, 4.7, 5.6, 6.8, 8.2)) -> float:
    """Nearest E12 value (capacitors, resistors as stocked)."""
    decade = 10 ** math.floor(math.log10(value))
    candidates = [s * decade for s in series] + [10 * decade]
    return min(candidates, key=lambda v: abs(math.log(v / value)))


def _segment_field(p: tuple[float, float, float], a: tuple[float, float, float],
                   b: tuple[float, float, float]) -> tuple[float, float, float]:
    """B (tesla per ampere) at p from a straight wire a->b (Biot-Savart, closed form)."""
    ax, ay, az = (p[0] - a[0], p[1] - a[1], p[2] - a[2])
    bx, by, bz = (p[0] - b[0], p[1] - b[1], p[2] - b[2])
    dx, dy, dz = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
    cx, cy, cz = (dy * az - dz * ay, dz * ax - dx * az, dx * ay - dy * ax)
    cross2 = cx * cx + cy * cy + cz * cz
    if cross2 < 1e-30:
        return (0.0, 0.0, 0.0)
    na, nb = math.sqrt(ax * ax + ay * ay + az * az), math.sqrt(bx * bx + by * by + bz * bz)
    dot = dx * (ax / na - bx / nb) + dy * (ay / na - by / nb) + dz * (az / na - bz / nb)
    k = MU0 / (4 * math.pi) * dot / cross2
    return (-k * cx, -k * cy, -k * cz)


def field_z(c: Coil, x: float, y: float, z: float) -> float:
    """Normal field Hz (A/m per ampere of coil current) at (x, y, z) mm from the coil centre."""
    total = 0.0
    p = (x * 1e-3, y * 1e-3, z * 1e-3)
    for k in range(c.turns):
        hx = (c.outer_x / 2 - c.trace / 2 - k * c.pitch) * 1e-3
        hy = (c.outer_y / 2 - c.trace / 2 - k * c.pitch) * 1e-3
        corners = [(-hx, -hy, 0.0), (hx, -hy, 0.0), (hx, hy, 0.0), (-hx, hy, 0.0)]
        for i in range(4):
            total += _segment_field(p, corners[i], corners[(i + 1) % 4])[2]
    return total / MU0


def coupling_profile(c: Coil, pitch: float, height: float, tag_mm: float) -> list[float]:
    """Mean Hz over a tag's area at n pitches to the side, relative to n = 0 (own slot)."""
    def mean_over_tag(x0: float) -> float:
        r = tag_mm / 2
        pts = [(i * r / 2, j * r / 2) for i in range(-2, 3) for j in range(-2, 3)
               if (i * r / 2) ** 2 + (j * r / 2) ** 2 <= r * r]
        return sum(field_z(c, x0 + px, py, height) for px, py in pts) / len(pts)
    own = mean_over_tag(0.0)
    return [abs(mean_over_tag(n * pitch)) / abs(own) for n in range(0, 5)]


def cmath_phase_deg(z: complex) -> float:
    return math.degrees(cmath.phase(z))


Piece = tuple[tuple[float, float], tuple[float, float]]


def _turn_pieces(c: Coil, dx: float, pieces: int) -> list[Piece]:
    """Each turn as short straight pieces (midpoint, vector), metres, shifted dx mm along x."""
    out = []
    for k in range(c.turns):
        hx = (c.outer_x / 2 - c.trace / 2 - k * c.pitch) * 1e-3
        hy = (c.outer_y / 2 - c.trace / 2 - k * c.pitch) * 1e-3
        corners = [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)]
        for i in range(4):
            (x1, y1), (x2, y2) = corners[i], corners[(i + 1) % 4]
            for j in range(pieces):
                t0, t1 = j / pieces, (j + 1) / pieces
                mx = x1 + (x2 - x1) * (t0 + t1) / 2 + dx * 1e-3
                my = y1 + (y2 - y1) * (t0 + t1) / 2
                out.append(((mx, my), ((x2 - x1) / pieces, (y2 - y1) / pieces)))
    return out


def mutual_inductance(c: Coil, dx: float, pieces: int = 12) -> float:
    """Neumann's formula between the coil and a copy dx mm beside it, in the same plane (H)."""
    a, b = _turn_pieces(c, 0.0, pieces), _turn_pieces(c, dx, pieces)
    total = 0.0
    for (p1, d1) in a:
        for (p2, d2) in b:
            r = math.hypot(p1[0] - p2[0], p1[1] - p2[1])
            total += (d1[0] * d2[0] + d1[1] * d2[1]) / r
    return MU0 / (4 * math.pi) * total
