"""Export a session from the event log: the JSON-lines table log, or CSV of hands and payments.

The table log needs nothing but the store; the CSV replays the session with the game engine
(Contract 4) and settles each hand with the scoring rules (Contract 2), imported only here.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Mapping
from typing import Any, TextIO

from controller.store.errors import StoreError
from controller.store.eventlog import EventLog, table_log

SEATS = ("1", "2", "3", "4")
CSV_COLUMNS = (
    ["session", "hand", "dealer", "prevailing_wind", "result", "winner"]
    + [f"score_{s}" for s in SEATS]
    + [f"net_{s}" for s in SEATS]
    + ["payments"]
)


def export_jsonl(
    log: EventLog, out: TextIO, session_id: int | None = None, notes: bool = False
) -> int:
    """Write the session's table log, one JSON object a line; return the number of lines."""
    count = 0
    for event in table_log(log, session_id, notes=notes):
        out.write(json.dumps(event, ensure_ascii=False, separators=(", ", ": ")) + "\n")
        count += 1
    return count


def export_csv(log: EventLog, out: TextIO, session_id: int | None = None) -> int:
    """Replay the session and write one CSV row per hand; return the number of hands."""
    try:
        from controller import game
    except ImportError as exc:  # pragma: no cover - the engine ships with the package
        raise StoreError(f"CSV export needs the game engine, which failed to load: {exc}") from exc
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
    return (
        [session_id, number, hand.get("dealer"), hand.get("prevailing_wind"),
         hand.get("result") or "", _blank(hand.get("winner"))]
        + [_blank(scores.get(s)) for s in SEATS]
        + [_blank(net.get(s)) for s in SEATS]
        + ["; ".join(f"{a}->{b} {amount}" for a, b, amount in payments)]
    )


def _payments(
    ruleset: str, options: Mapping[str, Any], hand: Mapping[str, Any]
) -> list[tuple[Any, Any, int]]:
    """Who pays whom for one finished hand (RULES.md settlement); none for a hand in play."""
    if hand.get("result") not in ("mahjong", "washout") or not hand.get("scores"):
        return []
    from controller.scoring import get_ruleset, settle

    scores = {int(seat): int(points) for seat, points in hand["scores"].items()}
    winner = hand.get("winner")
    settlement = settle(
        get_ruleset(ruleset, options), int(hand["dealer"]),
        int(winner) if winner is not None else None, scores,
    )
    return [(a, b, int(amount)) for a, b, amount in settlement.payments if amount]


def _blank(value: Any) -> Any:
    return "" if value is None else value
