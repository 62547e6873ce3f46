"""Fold one stored session, event by event, into facts (Contract 4's engine, nothing else).

A fact's ``seq`` is the log position of the event that made it; a session's end has no event,
so its fact carries the session's last seq and ``kind`` "session_end". Hand facts carry no tile
of any rack: the club and the broker get the result, the scores, the nets and the payments.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from controller import game
from controller.game.people import names_json, penalty_json
from controller.game.views import winds_of

POSITIONS = ("1", "2", "3", "4")


@dataclass(frozen=True)
class Fact:
    """One thing that happened in a session: session_start, players, hand, penalty or
    session_end; ``body`` is public (no concealed tile, no token)."""

    session: int
    seq: int
    kind: str
    body: dict[str, Any]


def public_hand(record: dict[str, Any], result: dict[str, Any] | None) -> dict[str, Any]:
    """A finished hand as the club sees it: the record (winds, dealer, names) with the
    payments, whether the winner's hand was a limit hand and its patterns by name; no tiles."""
    result = result or {}
    winner = record.get("winner")
    detail = (result.get("details") or {}).get(str(winner)) or {}
    score = detail.get("score") or {}
    body = {k: record.get(k) for k in (
        "number", "dealer", "prevailing_wind", "result", "winner", "win_source", "discarder",
        "scores", "net")}
    body["winds"] = record.get("winds") or winds_of(int(record.get("dealer") or 1))
    body["names"] = record.get("names") or dict.fromkeys(POSITIONS)
    body["payments"] = list(result.get("payments") or [])
    body["limit_hand"] = score.get("limit_hand") if winner is not None else None
    # the winner's patterns by name (the explained items' names: no tiles), for the club's
    # player pages; shown by the table's own result overlay once the hand is over
    body["patterns"] = [str(i.get("name"))[:80] for i in (score.get("items") or [])
                        if isinstance(i, dict) and i.get("name")][:40] if winner is not None \
        else []
    return body


@dataclass
class SessionFold:
    """The running fold of one session: feed it records in order; it yields facts."""

    session: int
    ruleset: str
    started: float
    state: Any = field(default_factory=game.new_game)
    seq: int = 0
    explained: dict[int, dict[str, Any]] = field(default_factory=dict)

    def feed(self, seq: int, event: dict[str, Any], at: float | None) -> list[Fact]:
        before = self.state
        outcome = game.apply(before, event, at)
        self.state = outcome.state
        self.seq = seq
        if not outcome.accepted:
            return []
        after = self.state
        facts: list[Fact] = []
        if "session" in event:
            facts.append(Fact(self.session, seq, "session_start", {
                "ruleset": self.ruleset, "options": dict(after.options),
                "started": self.started}))
        if after.names != before.names:
            facts.append(Fact(self.session, seq, "players", {"names": names_json(after.names)}))
        if (len(after.hands) > len(before.hands) or _resettled(before, after)) and (
                after.hand is not None):
            facts.append(Fact(self.session, seq, "hand", self._hand_body(after, at)))
        elif len(after.hands) < len(before.hands):  # an undo reopened a finished hand
            for number in range(len(after.hands) + 1, len(before.hands) + 1):
                self.explained.pop(number, None)
                facts.append(Fact(self.session, seq, "hand_undone", {"number": number}))
        holders = _holders(before, after)
        if holders is not None:
            facts.append(Fact(self.session, seq, "holders", holders))
        if len(after.penalties) > len(before.penalties):
            facts.append(Fact(self.session, seq, "penalty",
                              {"penalty": penalty_json(after.penalties[-1]),
                               "index": len(after.penalties)}))
        for index in range(len(after.penalties) + 1, len(before.penalties) + 1):
            facts.append(Fact(self.session, seq, "penalty_undone", {"index": index}))
        for index, (old, new) in enumerate(zip(before.penalties, after.penalties,
                                               strict=False), start=1):
            if new.cancelled and not old.cancelled:
                facts.append(Fact(self.session, seq, "penalty_undone", {"index": index}))
        return facts

    def _hand_body(self, after: Any, at: float | None) -> dict[str, Any]:
        view = game.public_view(after, at)
        result = (view.get("hand") or {}).get("result")
        record = view["hands"][-1]
        self.explained[int(record["number"])] = {**record, **(result or {})}
        return {**public_hand(record, result), "game_over": bool(after.game_over)}

    def end_fact(self, ended: float) -> Fact:
        return Fact(self.session, self.seq, "session_end", {"ended": ended, **self.summary()})

    def summary(self) -> dict[str, Any]:
        """Totals (transfers included), deductions, final score and names as they stand."""
        view = game.public_view(self.state)
        totals = view.get("totals") or {}
        deductions = view.get("deductions") or {}
        final = {p: int(totals.get(p, 0)) - int(deductions.get(p, 0)) for p in POSITIONS}
        return {"ruleset": self.ruleset, "hands": len(self.state.hands), "totals": totals,
                "deductions": deductions, "final": final, "names": view.get("names"),
                "penalties": view.get("penalties") or []}

    def explained_hands(self) -> list[dict[str, Any]]:
        """Every finished hand with its explained scores and payments (for the table's pages)."""
        out = []
        for record in game.public_view(self.state)["hands"]:
            extra = self.explained.get(int(record["number"])) or {}
            out.append({**extra, **record, "details": extra.get("details") or {},
                        "payments": extra.get("payments") or []})
        return out


def _resettled(before: Any, after: Any) -> bool:
    """Riichi: the newest hand settled again in place (the ura laid after a riichi winner's
    win, a noten declared after the draw, a chombo voiding the hand just ended): its fact is
    sent again under the same number, which replaces the one sent before."""
    if after.rt is None or not after.hands or len(after.hands) != len(before.hands):
        return False
    old, new = before.hands[-1], after.hands[-1]
    return bool(old.number == new.number and (
        old.result, old.net, old.scores, old.winner) != (new.result, new.net, new.scores,
                                                         new.winner))


def _holders(before: Any, after: Any) -> dict[str, Any] | None:
    """The names of finished hands and penalties a seat-holder correction changed: a
    ``holders`` fact, ``{"hands": {number: names}, "penalties": {index: names}}``."""
    if after.hands is before.hands and after.penalties is before.penalties:
        return None  # most events: nothing recorded changed (the same tuples)
    hands = {str(a.number): names_json(a.names)
             for a, b in zip(after.hands, before.hands, strict=False)
             if a.number == b.number and a.names != b.names}
    penalties = {str(i): names_json(a.names)
                 for i, (a, b) in enumerate(zip(after.penalties, before.penalties,
                                                strict=False), start=1)
                 if a.names != b.names}
    return {"hands": hands, "penalties": penalties} if hands or penalties else None


def session_facts(info: Any, records: Iterable[Any]) -> Iterator[Fact]:
    """Every fact of a stored session (``info``: a store SessionInfo; ``records``: its rows)."""
    fold = SessionFold(info.id, info.ruleset, info.started)
    for record in records:
        yield from fold.feed(record.seq, record.event, record.at)
    if info.ended_at is not None:
        yield fold.end_fact(info.ended_at)
