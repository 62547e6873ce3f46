"""Plans (top views) of one seat and of the table's centre: where each board lies, the cable
slot and holes, the seat board under the table, and every reader cable's run with its length
(mechanics.py). Drawn from above, y (towards the table centre) up the page."""

from __future__ import annotations

from typing import Any

from kicad_sexpr import Board
from mechanics import Run, centre_runs, seat_runs


def headers_of(boards: dict[str, Board]) -> tuple[dict[str, dict[str, tuple[float, float]]],
                                                  dict[str, float]]:
    """Per board its reader headers' positions (KiCad frame) and its height."""
    hdr = {name: {fp.ref: (fp.x, fp.y) for fp in b.footprints
                  if fp.ref.startswith("J") and len(fp.pads) == 8}
           for name, b in boards.items()}
    return hdr, {name: b.height for name, b in boards.items()}


def _runs_svg(runs: list[Run], p: Any) -> list[str]:
    from drawings import text
    out = []
    for r in runs:
        pts = [p(r.start[0], r.start[1]), p(*r.hole), p(r.hole[0], r.end[1]), p(*r.end)]
        path = " ".join(f"{x:.2f},{y:.2f}" for x, y in pts)
        out.append(f'<polyline class="run" data-channel="{r.channel}" data-mm="{r.length_mm}" '
                   f'points="{path}" style="fill:none;stroke:#c06;stroke-width:0.3;'
                   'stroke-opacity:0.6"/>')
    longest = max(runs, key=lambda r: r.length_mm)
    rows = [f"{r.channel} {r.ref}->{r.to} {r.length_mm:g}" for r in runs]
    out.append(text(*p(-250, -95), f"cable runs (pink), mm: longest {longest.channel} "
                    f"{longest.length_mm:g}; every cable cut to the same length", 2.6))
    for i in range(0, len(rows), 6):
        out.append(text(*p(-250, -102 - 5 * (i // 6)), ";  ".join(rows[i:i + 6]), 2.2))
    return out


def seat_plan(layout: dict[str, Any], boards: dict[str, Board]) -> str:
    from drawings import rect, svg, text
    from section import rack_front_y
    hdr, hts = headers_of(boards)
    mech = layout["mechanics"]
    runs = seat_runs(layout, hdr, hts)
    w, h = 540.0, 330.0

    def p(x: float, y: float) -> tuple[float, float]:
        return (270.0 + x, 190.0 - y)
    rack_w = layout["zones"]["rack"]["board_mm"][0]
    meld = layout["placement_in_seat_frame"]["meld"]["origin_mm"]
    mw, mh = layout["zones"]["meld"]["board_mm"]
    s0, s1 = mech["cable_slot_y_mm"]
    sb = mech["seat_board"]
    seat = boards["seat"]
    sy0 = sb["header_row_y_mm"] - (seat.height - hdr["seat"]["J100"][1])
    front, rear = rack_front_y(layout), mech["rack_plinth_rear_y_mm"]
    x0, y0 = p(-rack_w / 2 - 3, rear)
    body = [
        rect(*p(-265, 0), 530, 1.0, "fill:#000"),
        text(*p(-262, -6), "table edge (the player sits below)", 2.6),
        rect(x0, y0, rack_w + 6, rear - front, "fill:#f0e6d8;stroke:#7a5a3a;stroke-width:0.3",
             f' class="rack_body" data-y0="{front:.2f}" data-y1="{rear:.2f}"'),
        rect(*p(meld[0], meld[1] + mh), mw, mh, "fill:none;stroke:#2a7a2a;stroke-width:0.6",
             f' class="board" data-board="meld" data-x="{meld[0]:.2f}" data-y="{meld[1]:.2f}"'),
        rect(*p(-rack_w / 2 + 6, s1), rack_w - 12, s1 - s0, "fill:#fff;stroke:#000;"
             "stroke-width:0.3", f' class="slot" data-y0="{s0:.2f}" data-y1="{s1:.2f}"'),
        rect(*p(sb["left_x_mm"], sy0 + seat.height), seat.width, seat.height,
             "fill:none;stroke:#2a7a2a;stroke-width:0.4;stroke-dasharray:2,1",
             f' class="board" data-board="seat" data-x="{sb["left_x_mm"]:.2f}" '
             f'data-y="{sy0:.2f}"'),
        text(*p(-rack_w / 2, rear + 4), "rack body (brown) over the rack board, its plinth "
             "over the meld strip's reader bands; cable slot (white) through the table top; "
             "meld strip (green); seat board under the table (dashed)", 2.6),
    ]
    body += _runs_svg(runs, p)
    return svg(w, h, body, "one seat from above: boards, slot, seat board, cable runs (mm)")


def centre_plan(layout: dict[str, Any], boards: dict[str, Board]) -> str:
    from drawings import rect, svg, text
    hdr, hts = headers_of(boards)
    c = layout["mechanics"]["centre"]
    runs = centre_runs(layout, hdr, hts)

    def p(x: float, y: float) -> tuple[float, float]:
        return (270.0 + x, 150.0 - y)
    body = []
    for zone, key in (("discard", "discard_lower_left_mm"), ("dora", "dora_lower_left_mm")):
        x, y = c[key]
        bw, bh = layout["zones"][zone]["board_mm"]
        body.append(rect(*p(x, y + bh), bw, bh, "fill:#e8f4e8;stroke:#2a7a2a;stroke-width:0.5",
                         f' class="board" data-board="{zone}" data-x="{x:.2f}" data-y="{y:.2f}"'))
        for coil in layout["zones"][zone]["coils"]:
            cx, cy = coil["centre_mm"]
            body.append(rect(*p(x + cx - coil["outer_x_mm"] / 2, y + cy + coil["outer_y_mm"] / 2),
                             coil["outer_x_mm"], coil["outer_y_mm"],
                             "fill:none;stroke:#b35900;stroke-width:0.4"))
        for band_y in ((0.0, 50.0),) if zone == "discard" else ((0.0, 50.0), (bh - 50.0, bh)):
            body.append(rect(*p(x - 2, y + band_y[1]), bw + 4, band_y[1] - band_y[0],
                             "fill:#f0e6d8;fill-opacity:0.6;stroke:#7a5a3a;stroke-width:0.3"))
    seat = boards["seat"]
    row = c["centre_board_header_row_y_mm"]
    y0 = row - (seat.height - hdr["seat"]["J100"][1])
    body.append(rect(*p(c["centre_board_left_x_mm"], y0 + seat.height), seat.width,
                     seat.height, "fill:none;stroke:#2a7a2a;stroke-width:0.4;"
                     "stroke-dasharray:2,1", f' class="board" data-board="centre" '
                     f'data-x="{c["centre_board_left_x_mm"]:.2f}" data-y="{y0:.2f}"'))
    body.append(text(*p(-250, 130), "table centre from above (origin at the centre, seat 1 "
                     "below): discard and dora pads (green, coils orange) in pockets; pad "
                     "housings (brown) over their reader and network bands; the centre board "
                     "under the table (dashed)", 2.6))
    body += _runs_svg(runs, lambda x, y: p(x, y + 0.0))
    return svg(640.0, 300.0, body, "table centre from above: pads, centre board, cables (mm)")


def _seat_group(layout: dict[str, Any], seat: Board, k: int, c: float, half: float) -> str:
    """One seat's boards and rack body, seat frame (x right, y to the centre) -> drawing:
    seat 1 at the bottom, turned k x 90 deg counter-clockwise about the centre c."""
    from drawings import rect, text
    from section import rack_front_y
    mech = layout["mechanics"]
    mw, mh = layout["zones"]["meld"]["board_mm"]
    meld = layout["placement_in_seat_frame"]["meld"]["origin_mm"]
    rack_w = layout["zones"]["rack"]["board_mm"][0] + 6.0
    front, rear = rack_front_y(layout), mech["rack_plinth_rear_y_mm"]
    s0, s1 = mech["cable_slot_y_mm"]
    sb = mech["seat_board"]
    sy0 = sb["header_row_y_mm"] - (seat.height - next(fp.y for fp in seat.footprints
                                                      if fp.ref == "J100"))

    def r(x: float, y: float, w: float, h: float, style: str) -> str:
        return rect(c + x, c + half - y - h, w, h, style)
    body = [r(-rack_w / 2, front, rack_w, rear - front,
              "fill:#f0e6d8;stroke:#7a5a3a;stroke-width:0.6"),
            r(meld[0], meld[1], mw, mh, "fill:none;stroke:#2a7a2a;stroke-width:0.8"),
            r(-rack_w / 2 + 9, s0, rack_w - 18, s1 - s0, "fill:#fff;stroke:#000;"
              "stroke-width:0.4"),
            r(sb["left_x_mm"], sy0, seat.width, seat.height, "fill:none;stroke:#2a7a2a;"
              "stroke-width:0.6;stroke-dasharray:3,2")]
    for coil in layout["zones"]["meld"]["coils"]:
        cx, cy = coil["centre_mm"]
        body.append(r(meld[0] + cx - coil["outer_x_mm"] / 2,
                      meld[1] + cy - coil["outer_y_mm"] / 2, coil["outer_x_mm"],
                      coil["outer_y_mm"], "fill:none;stroke:#b35900;stroke-width:0.4"))
    body.append(text(c, c + half - 8, f"seat {k + 1}", 8, "middle"))
    return f'<g transform="rotate({-90 * k} {c:.2f} {c:.2f})">' + "".join(body) + "</g>"


def table_plan(layout: dict[str, Any], boards: dict[str, Board]) -> str:
    """The whole table at its smallest (mechanics.min_table_mm) from above: each seat's rack
    body, meld strip, cable slot and seat board turned to its side, the centre pads."""
    from drawings import dim, rect, svg, text
    from mechanics import min_table_mm
    side = min_table_mm(layout)
    half = side / 2
    m = 30.0
    c = m + half                      # the table centre in the drawing
    body = [rect(m, m, side, side, "fill:#fbfaf6;stroke:#000;stroke-width:1",
                 f' class="table" data-mm="{side:.1f}"')]
    body += [_seat_group(layout, boards["seat"], k, c, half) for k in range(4)]
    cen = layout["mechanics"]["centre"]
    for zone, key in (("discard", "discard_lower_left_mm"), ("dora", "dora_lower_left_mm")):
        (x, y), (bw, bh) = cen[key], layout["zones"][zone]["board_mm"]
        body.append(rect(c + x, c - y - bh, bw, bh, "fill:#e8f4e8;stroke:#2a7a2a;"
                         "stroke-width:0.8"))
    clear = cen["clearance_to_seat_coils_mm"]
    body += [dim("table_side", side, (m, m + side + 12), (m + side, m + side + 12),
                 f"{side:g} mm (the smallest table)", 8),
             text(m, m - 10, f"the table from above, mm: four seats and the centre pads; "
                  f"centre coils {clear:g} mm or more from every seat's coils", 9)]
    return svg(side + 2 * m, side + 2 * m + 20, body, "the whole table from above (mm)")
