"""Reports made from the stored log with the game: a session as CSV, one row per hand with its
scores, net amounts, payments, and each seat's wind and player's name in that hand
(``mahjong-table export --format csv``).

The session is replayed with the game engine (Contract 4) and each hand settled with the
scoring rules (Contract 2); the store itself only reads and writes events.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping
from typing import Any, TextIO

from controller import game
from controller.scoring import get_ruleset, settle
from controller.store import EventLog, table_log

SEATS = ("1", "2", "3", "4")
CSV_COLUMNS = (
    ["session", "hand", "dealer", "prevailing_wind", "result", "winner"]
    + [f"score_{s}" for s in SEATS]
    + [f"net_{s}" for s in SEATS]
    + ["payments"]
    # added after the original columns, so readers of the older layout keep working
    + [f"wind_{s}" for s in SEATS]
    + [f"name_{s}" for s in SEATS]
)


def export_csv(log: EventLog, out: TextIO, session_id: int | None = None) -> int:
    """Replay the session and write one CSV row per hand; return the number of hands."""
    info = log.session(session_id)
    state, _outcomes = game.replay(table_log(log, info.id))
    summary = game.replay_summary(state)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    # Only finished hands: the hand still in play has no result, no scores and no payments yet.
    hands = [h for h in summary.get("hands", []) if h.get("result") in ("mahjong", "washout")]
    for number, hand in enumerate(hands, start=1):
        payments = _payments(info.ruleset, info.options, hand)
        writer.writerow(_hand_row(info.id, number, hand, payments))
    return len(hands)


def _hand_row(
    session_id: int, number: int, hand: Mapping[str, Any], payments: Iterable[tuple[Any, Any, int]]
) -> list[Any]:
    scores = hand.get("scores") or {}
    net = hand.get("net") or {}
    winds = hand.get("winds") or {}
    names = hand.get("names") or {}
    return (
        [session_id, number, hand.get("dealer"), hand.get("prevailing_wind"),
         hand.get("result") or "", _blank(hand.get("winner"))]
        + [_blank(scores.get(s)) for s in SEATS]
        + [_blank(net.get(s)) for s in SEATS]
        + ["; ".join(f"{a}->{b} {amount}" for a, b, amount in payments)]
        + [_blank(winds.get(s)) for s in SEATS]
        + [_blank(names.get(s)) for s in SEATS]
    )


def _payments(
    ruleset: str, options: Mapping[str, Any], hand: Mapping[str, Any]
) -> list[tuple[Any, Any, int]]:
    """Who pays whom for one finished hand (RULES.md settlement); none for a hand in play."""
    if hand.get("result") not in ("mahjong", "washout") or not hand.get("scores"):
        return []
    scores = {int(seat): int(points) for seat, points in hand["scores"].items()}
    winner = hand.get("winner")
    settlement = settle(
        get_ruleset(ruleset, options), int(hand["dealer"]),
        int(winner) if winner is not None else None, scores,
    )
    return [(a, b, int(amount)) for a, b, amount in settlement.payments if amount]


def _blank(value: Any) -> Any:
    return "" if value is None else value
