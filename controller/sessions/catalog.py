"""The table's past sessions, read from its event log: the list (date, rule set, players,
hands, final totals), one session's hands with explained scores and payments, and its export
as JSON lines or CSV (public facts only: the finished hands as the dashboard showed them)."""

from __future__ import annotations

import csv
import io
import json
import threading
from pathlib import Path
from typing import Any

from controller import game
from controller.sessions.ledger import POSITIONS, SessionFold
from controller.sessions.places import session_places
from controller.store import DamagedLog, EventLog, StoreError


class SessionNotFound(LookupError):
    pass


class Catalog:
    """Folds of the log's sessions, kept and brought up to date as the log grows."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = Path(db_path)
        self._folds: dict[int, SessionFold] = {}
        self._damaged: dict[int, str] = {}  # a session with a row that cannot be read: why
        self._lock = threading.Lock()

    def _update(self) -> list[tuple[Any, SessionFold]]:
        if not self.db_path.exists():
            return []
        out = []
        with self._lock, EventLog.open(self.db_path, readonly=True) as log:
            for info in log.sessions():
                fold = self._folds.get(info.id)
                if fold is None:
                    fold = self._folds[info.id] = SessionFold(info.id, info.ruleset, info.started)
                if info.damaged:
                    self._damaged[info.id] = f"its start cannot be read ({info.damaged})"
                elif info.id not in self._damaged:
                    self._feed(log, info.id, fold)
                out.append((info, fold))
        return out

    def _feed(self, log: EventLog, session_id: int, fold: SessionFold) -> None:
        """The session's new events; at a damaged row the session is marked and its fold
        keeps what came before (the other sessions are read on)."""
        try:
            for record in log.records(session_id, after=fold.seq):
                fold.feed(record.seq, record.event, record.at)
        except DamagedLog as exc:
            self._damaged[session_id] = exc.public

    def sessions(self) -> list[dict[str, Any]]:
        """Newest first: id, started, ended, rule set, players, hands, totals."""
        rows = []
        for info, fold in self._update():
            summary = fold.summary()
            names = summary.get("names") or {}
            rows.append({"session": info.id, "started": info.started, "ended": info.ended_at,
                         "ruleset": info.ruleset, "hands": summary["hands"],
                         "players": {p: names.get(p) or f"Seat {p}" for p in POSITIONS},
                         "totals": summary["totals"], "deductions": summary["deductions"],
                         "final": summary["final"], **_places(info, fold, summary),
                         "damaged": self._damaged.get(info.id)})
        return rows[::-1]

    def session(self, session_id: int) -> dict[str, Any]:
        for info, fold in self._update():
            if info.id == session_id:
                summary = fold.summary()
                return {"session": info.id, "started": info.started, "ended": info.ended_at,
                        **summary, "hands": fold.explained_hands(),
                        **_places(info, fold, summary), "damaged": self._damaged.get(info.id)}
        raise SessionNotFound(f"there is no session {session_id} in this table's log")


def _places(info: Any, fold: SessionFold, summary: dict[str, Any]) -> dict[str, Any]:
    """Finished (ended, or the game's own end) and the session's four places by holder."""
    done = info.ended_at is not None or bool(fold.state.game_over)
    hands = game.public_view(fold.state)["hands"]
    return {"finished": done,
            "places": session_places(hands, summary["penalties"], finished=done)}


def safe_sessions(catalog: Catalog) -> list[dict[str, Any]]:
    try:
        return catalog.sessions()
    except StoreError:
        return []


CSV_COLUMNS = (["session", "hand", "dealer", "prevailing_wind", "result", "winner",
                "win_source", "discarder"]
               + [f"{k}_{p}" for p in POSITIONS for k in ("name", "wind", "score", "net")]
               + ["payments"])


def export_csv(detail: dict[str, Any]) -> str:
    """One row per finished hand (names and winds of that hand), then one per penalty."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for hand in detail["hands"]:
        seats = []
        for p in POSITIONS:
            seats += [(hand.get("names") or {}).get(p) or f"Seat {p}",
                      (hand.get("winds") or {}).get(p, ""), (hand.get("scores") or {}).get(p, 0),
                      (hand.get("net") or {}).get(p, 0)]
        pays = " ".join(f"{x['from']}->{x['to']}:{x['amount']}" for x in hand.get("payments", []))
        writer.writerow([detail["session"], hand["number"], hand.get("dealer"),
                         hand.get("prevailing_wind"), hand.get("result"), hand.get("winner"),
                         hand.get("win_source"), hand.get("discarder"), *seats, pays])
    for i, pen in enumerate(detail.get("penalties") or [], start=1):
        if pen.get("cancelled"):
            continue
        pays = " ".join(f"{x['from']}->{x['to']}:{x['amount']}" for x in pen.get("payments", []))
        if pen["kind"] == "deduction":
            pays = f"{pen['seat']}-:{pen['amount']}"
        writer.writerow([detail["session"], f"penalty {i} ({pen['kind']}, hand {pen['hand']})",
                         *[""] * (len(CSV_COLUMNS) - 3), pen.get("reason") or "", pays])
    for place in detail.get("places") or []:
        for part in place["holders"]:
            writer.writerow([detail["session"], f"place {place['place']} (seat {place['seat']})",
                             *[""] * (len(CSV_COLUMNS) - 3), part["label"],
                             _part_text(part, place)])
    return buf.getvalue()


def _part_text(part: dict[str, Any], place: dict[str, Any]) -> str:
    points = part["points"]
    shown = "provisional" if points is None else f"{points:g} rank points"
    return (f"{part['score']} in {part['hands']} hands of the seat's {place['score']}; "
            f"{shown}")


def export_jsonl(detail: dict[str, Any]) -> str:
    """The session line, one line per finished hand (explained), per penalty, then totals."""
    head = {"session": {k: detail[k] for k in ("session", "ruleset", "started", "ended")}}
    lines = [head] + [{"hand": h} for h in detail["hands"]]
    lines += [{"penalty": p} for p in detail.get("penalties") or []]
    lines.append({"totals": {k: detail[k] for k in ("names", "totals", "deductions", "final")}})
    lines.append({"places": {"finished": detail.get("finished", False),
                             "places": detail.get("places") or []}})
    return "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)
