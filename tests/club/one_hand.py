"""A finished session of one hand, as a table's facts stored straight into the club's store
(no broker): what the standings, the league and the cards are computed from."""

from __future__ import annotations

from typing import Any

from controller.club.store import ClubStore


def one_hand_session(store: ClubStore, table: str, started: float,
                     deduction: int | None = None) -> None:
    """A hua-bao session of one hand at ``table``: seat 2 wins 24 from the wall, nets -48,
    +96, -24, -24 (RULES.md: "the winner is paid his score by each loser; east pays or
    receives double"; seat 1 is east); with
    ``deduction``, that many points off seat 1 after the hand (a penalty). Each fact must be
    applied."""
    names = {str(s): f"{table}-{s}" for s in range(1, 5)}
    net = {"1": -48, "2": 96, "3": -24, "4": -24}
    facts: list[dict[str, Any]] = [
        {"kind": "session_start", "session": 1, "pos": 8, "prev": 0, "ruleset": "hua-bao",
         "started": started},
        {"kind": "hand", "session": 1, "pos": 16, "prev": 8, "number": 1,
         "result": "mahjong", "winner": 2, "win_source": "wall", "discarder": None,
         "scores": {"1": 0, "2": 24, "3": 0, "4": 0}, "net": net,
         "winds": {"1": "east", "2": "south", "3": "west", "4": "north"}, "names": names,
         "payments": []}]
    prev = 16
    if deduction is not None:
        facts.append({"kind": "penalty", "session": 1, "pos": 20, "prev": 16, "index": 1,
                      "penalty": {"kind": "deduction", "hand": 1, "seat": 1,
                                  "amount": deduction, "names": names}})
        prev = 20
    facts.append({"kind": "session_end", "session": 1, "pos": 24, "prev": prev,
                  "ended": started + 60, "ruleset": "hua-bao", "hands": 1, "totals": net,
                  "deductions": {}, "final": net, "names": names, "penalties": []})
    for fact in facts:
        assert store.apply_fact(table, fact) == "applied"
