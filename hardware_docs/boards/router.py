"""A small grid router for the seat board (two layers, orthogonal tracks, vias).

The board's parts are placed so that every pad centre lies on the grid (0.635 mm). The router
connects each net's pads one at a time by A* from the copper the net already has; a cell is
free for a net when it keeps the design rules (0.2 mm clearance, 0.25 mm tracks, 0.6 mm vias,
0.5 mm copper to edge) to every other net's copper: tracks one cell apart keep 0.385 mm, a via
and a track one cell apart 0.21 mm, two vias need two cells. KiCad's own DRC checks the result
(kicad_check.py); this only has to be right often enough to give a clean board.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

PITCH = 0.635
TRACK = 0.25
CLEAR = 0.2
VIA_R = 0.3
EDGE = 0.5
VIA_COST = 12
WRONG_WAY = 3      # F.Cu prefers vertical runs, B.Cu horizontal ones
LAYERS = ("F.Cu", "B.Cu")

Cell = tuple[int, int, int]          # (layer, ix, iy)


@dataclass
class Grid:
    width: float
    height: float
    nx: int = 0
    ny: int = 0
    owner: list[list[int]] = field(default_factory=list)      # per layer: 0 free, -1 none, n net
    via_ok: list[int] = field(default_factory=list)            # 0 free, -1 none, n net
    th: set[tuple[int, int]] = field(default_factory=set)      # cells inside through-hole pads
    smd: set[tuple[int, int]] = field(default_factory=set)     # cells inside SMD pads
    copper: dict[int, set[Cell]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.nx = int(self.width / PITCH) + 1
        self.ny = int(self.height / PITCH) + 1
        self.owner = [[0] * (self.nx * self.ny) for _ in LAYERS]
        self.via_ok = [0] * (self.nx * self.ny)
        for ix in range(self.nx):
            for iy in range(self.ny):
                x, y = ix * PITCH, iy * PITCH
                d = min(x, y, self.width - x, self.height - y)
                if d < EDGE + TRACK / 2:
                    for lay in self.owner:
                        lay[iy * self.nx + ix] = -1
                if d < EDGE + VIA_R:
                    self.via_ok[iy * self.nx + ix] = -1

    def cell(self, x: float, y: float) -> tuple[int, int]:
        ix, iy = round(x / PITCH), round(y / PITCH)
        if abs(ix * PITCH - x) > 1e-6 or abs(iy * PITCH - y) > 1e-6:
            raise ValueError(f"({x}, {y}) is not on the {PITCH} mm grid")
        return ix, iy

    def _claim(self, arr: list[int], i: int, net: int) -> None:
        if arr[i] == 0:
            arr[i] = net
        elif arr[i] != net:
            arr[i] = -1

    def _rect(self, x: float, y: float, hw: float, hh: float) -> list[tuple[int, int]]:
        cells = []
        for ix in range(max(0, math.floor((x - hw) / PITCH)),
                        min(self.nx, math.ceil((x + hw) / PITCH) + 1)):
            for iy in range(max(0, math.floor((y - hh) / PITCH)),
                            min(self.ny, math.ceil((y + hh) / PITCH) + 1)):
                if abs(ix * PITCH - x) < hw - 1e-9 and abs(iy * PITCH - y) < hh - 1e-9:
                    cells.append((ix, iy))
        return cells

    def add_pad(self, net: int, x: float, y: float, w: float, h: float, through: bool) -> None:
        """A pad of ``net`` (0: no net) centred on a grid point."""
        layers = (0, 1) if through else (0,)
        for lay in layers:
            for ix, iy in self._rect(x, y, w / 2 + CLEAR + TRACK / 2, h / 2 + CLEAR + TRACK / 2):
                self._claim(self.owner[lay], iy * self.nx + ix, net or -1)
        for ix, iy in self._rect(x, y, w / 2 + CLEAR + VIA_R, h / 2 + CLEAR + VIA_R):
            self._claim(self.via_ok, iy * self.nx + ix, (net or -1) if through else -1)
        inside = self._rect(x, y, w / 2, h / 2) or [self.cell(x, y)]
        for ix, iy in inside:
            for lay in layers:
                self.owner[lay][iy * self.nx + ix] = net or -1
                if net:
                    self.copper.setdefault(net, set()).add((lay, ix, iy))
            (self.th if through else self.smd).add((ix, iy))
            if not through:
                self.via_ok[iy * self.nx + ix] = -1

    def add_track(self, net: int, layer: int, x1: float, y1: float, x2: float, y2: float,
                  width: float) -> set[Cell]:
        """A fixed (hand-placed) straight track, horizontal or vertical; the cells it covers."""
        hw = abs(x2 - x1) / 2 + width / 2
        hh = abs(y2 - y1) / 2 + width / 2
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        for ix, iy in self._rect(cx, cy, hw + CLEAR + TRACK / 2, hh + CLEAR + TRACK / 2):
            self._claim(self.owner[layer], iy * self.nx + ix, net)
        for ix, iy in self._rect(cx, cy, hw + CLEAR + VIA_R, hh + CLEAR + VIA_R):
            self._claim(self.via_ok, iy * self.nx + ix, net)
        cells = set()
        for ix, iy in self._rect(cx, cy, hw, hh):
            self.owner[layer][iy * self.nx + ix] = net
            self.copper.setdefault(net, set()).add((layer, ix, iy))
            cells.add((layer, ix, iy))
        return cells

    def free(self, net: int, c: Cell) -> bool:
        v = self.owner[c[0]][c[2] * self.nx + c[1]]
        return v == 0 or v == net

    def can_via(self, net: int, ix: int, iy: int) -> bool:
        v = self.via_ok[iy * self.nx + ix]
        return (v == 0 or v == net) and self.free(net, (0, ix, iy)) and \
            self.free(net, (1, ix, iy))

    def route(self, net: int, start: set[Cell], targets: set[Cell]) -> list[Cell] | None:
        """A* from ``start`` (copper of the net) to any target cell; the path, or None."""
        if start & targets:
            return []
        tx = [(c[1], c[2]) for c in targets]

        def h(ix: int, iy: int) -> int:
            return min(abs(ix - a) + abs(iy - b) for a, b in tx[:16])
        best: dict[Cell, int] = {}
        prev: dict[Cell, Cell | None] = {}
        heap: list[tuple[int, int, Cell]] = []
        for c in start:
            best[c] = 0
            prev[c] = None
            heapq.heappush(heap, (h(c[1], c[2]), 0, c))
        while heap:
            _f, g, c = heapq.heappop(heap)
            if g > best.get(c, 1 << 30):
                continue
            if c in targets:
                path = []
                cur: Cell | None = c
                while cur is not None:
                    path.append(cur)
                    cur = prev[cur]
                return path[::-1]
            lay, ix, iy = c
            steps = []
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                jx, jy = ix + dx, iy + dy
                if 0 <= jx < self.nx and 0 <= jy < self.ny:
                    wrong = (lay == 0 and dy == 0) or (lay == 1 and dx == 0)
                    steps.append(((lay, jx, jy), 1 + (WRONG_WAY if wrong else 0)))
            other = (1 - lay, ix, iy)
            if (ix, iy) in self.th:
                steps.append((other, 0))
            elif self.can_via(net, ix, iy):
                steps.append((other, VIA_COST))
            for n, cost in steps:
                if not self.free(net, n) and n not in targets:
                    continue
                ng = g + cost
                if ng < best.get(n, 1 << 30):
                    best[n] = ng
                    prev[n] = c
                    heapq.heappush(heap, (ng + h(n[1], n[2]), ng, n))
        return None

    def commit(self, net: int, path: list[Cell]) -> tuple[list[tuple[float, float, float, float,
                                                                      str]],
                                                          list[tuple[float, float]]]:
        """Claim the path's cells; its segments (x1, y1, x2, y2, layer) and vias (x, y)."""
        segs, vias = [], []
        for a, b in zip(path, path[1:], strict=False):
            if a[0] != b[0]:
                if (a[1], a[2]) not in self.th:
                    vias.append((a[1] * PITCH, a[2] * PITCH))
                    self._block_via(net, a[1], a[2])
            else:
                segs.append((a[1] * PITCH, a[2] * PITCH, b[1] * PITCH, b[2] * PITCH,
                             LAYERS[a[0]]))
        for c in path:
            self.owner[c[0]][c[2] * self.nx + c[1]] = net
            self.copper.setdefault(net, set()).add(c)
            i = c[2] * self.nx + c[1]
            if self.via_ok[i] == 0:
                self.via_ok[i] = net
        return _merge(segs), vias

    def _block_via(self, net: int, ix: int, iy: int) -> None:
        for lay in (0, 1):
            self.owner[lay][iy * self.nx + ix] = net
            self.copper.setdefault(net, set()).add((lay, ix, iy))
        for dx, dy in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
            jx, jy = ix + dx, iy + dy
            if 0 <= jx < self.nx and 0 <= jy < self.ny:
                self._claim(self.via_ok, jy * self.nx + jx, net)


def _merge(segs: list[tuple[float, float, float, float, str]]
           ) -> list[tuple[float, float, float, float, str]]:
    out: list[tuple[float, float, float, float, str]] = []
    for s in segs:
        if out:
            p = out[-1]
            same_dir = (p[0] == p[2] == s[0] == s[2]) or (p[1] == p[3] == s[1] == s[3])
            if p[4] == s[4] and same_dir and (p[2], p[3]) == (s[0], s[1]):
                out[-1] = (p[0], p[1], s[2], s[3], s[4])
                continue
        out.append(s)
    return out
