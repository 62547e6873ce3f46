"""A session as CSV, one layout for the command line (``mahjong-table export --format csv``)
and the dashboard's export (``GET /api/sessions/{id}/export?format=csv``): the same columns in
the same order, made here from one session's detail (``controller.sessions.catalog``: the
finished hands with their payments, names and winning facts, the penalties and places).

Columns (docs/store.md): ``session, hand, dealer, prevailing_wind, result, winner,
score_1..4, net_1..4, payments, wind_1..4, name_1..4, win_source, discarder``. A row per
finished hand, then a row per penalty in force (``hand`` reads ``penalty N``) and one per
holder's part of each place (``hand`` reads ``place P (seat S)``). Pure: no I/O.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

SEATS = ("1", "2", "3", "4")
CSV_COLUMNS = (
    ["session", "hand", "dealer", "prevailing_wind", "result", "winner"]
    + [f"score_{s}" for s in SEATS]
    + [f"net_{s}" for s in SEATS]
    + ["payments"]
    # added after the original columns, so readers of an older layout keep working
    + [f"wind_{s}" for s in SEATS]
    + [f"name_{s}" for s in SEATS]
    + ["win_source", "discarder"]
)


def export_csv(detail: Mapping[str, Any]) -> str:
    """The session's CSV text (``detail``: ``Catalog.session``'s answer)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    sid = detail["session"]
    for hand in detail.get("hands") or []:
        if hand.get("result") in ("mahjong", "washout"):
            writer.writerow(_hand_row(sid, hand))
    for index, pen in enumerate(detail.get("penalties") or [], start=1):
        if not pen.get("cancelled"):
            writer.writerow(_other_row(sid, f"penalty {index}", _penalty_text(pen),
                                       _penalty_payments(pen)))
    for place in detail.get("places") or []:
        for part in place["holders"]:
            writer.writerow(_other_row(sid, f"place {place['place']} (seat {place['seat']})",
                                       f"{part['label']}: {_part_text(part, place)}", ""))
    return buf.getvalue()


def _hand_row(sid: Any, hand: Mapping[str, Any]) -> list[Any]:
    scores = hand.get("scores") or {}
    net = hand.get("net") or {}
    winds = hand.get("winds") or {}
    names = hand.get("names") or {}
    return (
        [sid, hand["number"], hand.get("dealer"), hand.get("prevailing_wind"),
         hand.get("result") or "", _blank(hand.get("winner"))]
        + [_blank(scores.get(s)) for s in SEATS]
        + [_blank(net.get(s)) for s in SEATS]
        + [payments_text(hand.get("payments") or [])]
        + [_blank(winds.get(s)) for s in SEATS]
        + [_blank(names.get(s)) for s in SEATS]
        + [_blank(hand.get("win_source")), _blank(hand.get("discarder"))]
    )


def payments_text(payments: list[Mapping[str, Any]]) -> str:
    """``3->2 88; 4->2 40``: seat positions, from payer to payee."""
    return "; ".join(f"{p['from']}->{p['to']} {p['amount']}" for p in payments if p["amount"])


def _other_row(sid: Any, what: str, text: str, payments: str) -> list[Any]:
    row: list[Any] = [""] * len(CSV_COLUMNS)
    row[0], row[1] = sid, what
    row[CSV_COLUMNS.index("result")] = text
    row[CSV_COLUMNS.index("payments")] = payments
    return row


def _penalty_text(pen: Mapping[str, Any]) -> str:
    reason = f": {pen['reason']}" if pen.get("reason") else ""
    return f"{pen['kind']} in hand {pen.get('hand')}{reason}"


def _penalty_payments(pen: Mapping[str, Any]) -> str:
    if pen.get("kind") == "deduction":
        return f"{pen['seat']} -{pen['amount']}"
    return payments_text(pen.get("payments") or [])


def _part_text(part: Mapping[str, Any], place: Mapping[str, Any]) -> str:
    points = part["points"]
    shown = "provisional" if points is None else f"{points:g} rank points"
    return (f"{part['score']} in {part['hands']} hands of the seat's {place['score']}; "
            f"{shown}")


def _blank(value: Any) -> Any:
    return "" if value is None else value
