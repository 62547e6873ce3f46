"""The table's past sessions, read from its event log: the list (date, rule set, players,
hands, final totals), one session's hands with explained scores and payments, and its export
as JSON lines (public facts only: the finished hands as the dashboard showed them; the CSV is
``controller.reports``'s, one layout for the dashboard and the command line)."""

from __future__ import annotations

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

    def explained_hands(self) -> dict[int, list[dict[str, Any]]]:
        """Every session's finished hands as :meth:`session` gives them, read in one pass (the
        review's list: one pass, not one per session)."""
        return {info.id: fold.explained_hands() for info, fold in self._update()}

    def session(self, session_id: int) -> dict[str, Any]:
        for info, fold in self._update():
            if info.id == session_id:
                summary = fold.summary()
                return {"session": info.id, "started": info.started, "ended": info.ended_at,
                        **summary, "hands": fold.explained_hands(),
                        **_places(info, fold, summary), "damaged": self._damaged.get(info.id)}
        raise SessionNotFound(f"there is no session {session_id} in this table's log")


def _places(info: Any, fold: SessionFold, summary: dict[str, Any]) -> dict[str, Any]:
    """Finished (ended, or the game's own end) and the session's four places by holder (a
    riichi session's with its points and results, as ``/api/hands`` gives them)."""
    done = info.ended_at is not None or bool(fold.state.game_over)
    hands = game.public_view(fold.state)["hands"]
    return {"finished": done,
            "places": session_places(hands, summary["penalties"], finished=done,
                                     ruleset=info.ruleset)}


def safe_sessions(catalog: Catalog) -> list[dict[str, Any]]:
    try:
        return catalog.sessions()
    except StoreError:
        return []


def export_jsonl(detail: dict[str, Any]) -> str:
    """The session line, one line per finished hand (explained), per penalty, then totals."""
    head = {"session": {k: detail[k] for k in ("session", "ruleset", "started", "ended")}}
    lines = [head] + [{"hand": h} for h in detail["hands"]]
    lines += [{"penalty": p} for p in detail.get("penalties") or []]
    lines.append({"totals": {k: detail[k] for k in ("names", "totals", "deductions", "final")}})
    lines.append({"places": {"finished": detail.get("finished", False),
                             "places": detail.get("places") or []}})
    return "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)
