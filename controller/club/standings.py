"""Standings from the club's hands: nets by player name, tonight's standings, the league table
(rank points 4/2/1/0 by final place, ties share) and a player's own page.

A seat without a name counts as "Seat N at TABLE". A session's score for a player is the sum of
the nets of the hands played under that name, plus penalty transfers, minus deductions.
"""

from __future__ import annotations

import time
from collections import defaultdict
from typing import Any

POSITIONS = ("1", "2", "3", "4")
RANK_POINTS = (4.0, 2.0, 1.0, 0.0)
SELF_DRAWN = ("wall", "replacement", "dealt")
DEALT_IN = ("discard", "robbed_kong")
TONIGHT_HOURS = 12.0


def who(names: dict[str, Any] | None, table: str, position: Any) -> str:
    name = (names or {}).get(str(position))
    return str(name) if name else f"Seat {position} at {table}"


def net_by_name(hand: dict[str, Any]) -> dict[str, int]:
    table = str(hand.get("table"))
    out: dict[str, int] = defaultdict(int)
    for p, amount in (hand.get("net") or {}).items():
        out[who(hand.get("names"), table, p)] += int(amount)
    return dict(out)


def penalty_by_name(penalty: dict[str, Any]) -> dict[str, int]:
    """What a penalty does to each player's score (a deduction: minus its amount)."""
    table = str(penalty.get("table"))
    names = penalty.get("names")
    out: dict[str, int] = defaultdict(int)
    if penalty.get("kind") == "deduction":
        out[who(names, table, penalty.get("seat"))] -= int(penalty.get("amount") or 0)
    for pay in penalty.get("payments") or []:
        out[who(names, table, pay.get("from"))] -= int(pay.get("amount") or 0)
        out[who(names, table, pay.get("to"))] += int(pay.get("amount") or 0)
    return dict(out)


def session_scores(hands: list[dict[str, Any]], penalties: list[dict[str, Any]]
                   ) -> dict[tuple[str, int], dict[str, int]]:
    """(table, session) -> player -> score."""
    scores: dict[tuple[str, int], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for hand in hands:
        key = (str(hand["table"]), int(hand["session"]))
        for name, amount in net_by_name(hand).items():
            scores[key][name] += amount
    for penalty in penalties:
        key = (str(penalty["table"]), int(penalty["session"]))
        for name, amount in penalty_by_name(penalty).items():
            scores[key][name] += amount
    return {k: dict(v) for k, v in scores.items()}


def rank_points(scores: dict[str, int]) -> dict[str, dict[str, Any]]:
    """Place and rank points by final score: 4/2/1/0; tied players share the points of the
    places they hold together (two tied first: (4 + 2) / 2 = 3 each)."""
    ordered = sorted(scores.items(), key=lambda kv: -kv[1])
    out: dict[str, dict[str, Any]] = {}
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and ordered[j][1] == ordered[i][1]:
            j += 1
        points = [RANK_POINTS[k] if k < len(RANK_POINTS) else 0.0 for k in range(i, j)]
        share = sum(points) / len(points)
        for name, score in ordered[i:j]:
            out[name] = {"place": i + 1, "points": share, "score": score}
        i = j
    return out


def league(hands: list[dict[str, Any]], penalties: list[dict[str, Any]],
           sessions: list[dict[str, Any]], since: float | None = None) -> dict[str, Any]:
    """Per session the places, rank points and scores; totals per player over them."""
    started = {(s["table"], int(s["session"])): s.get("started") for s in sessions}
    ended = {(s["table"], int(s["session"])): s.get("ended") for s in sessions}
    per_session = []
    totals: dict[str, dict[str, Any]] = {}
    for (table, session), scores in sorted(session_scores(hands, penalties).items(),
                                           key=lambda kv: started.get(kv[0]) or 0):
        at = started.get((table, session))
        if since is not None and (at is None or at < since):
            continue
        ranks = rank_points(scores)
        per_session.append({"table": table, "session": session, "started": at,
                            "ended": ended.get((table, session)),
                            "players": [{"name": n, **r} for n, r in
                                        sorted(ranks.items(), key=lambda kv: kv[1]["place"])]})
        for name, r in ranks.items():
            t = totals.setdefault(name, {"name": name, "sessions": 0, "points": 0.0, "score": 0})
            t["sessions"] += 1
            t["points"] += r["points"]
            t["score"] += r["score"]
    table_ = sorted(totals.values(), key=lambda t: (-t["points"], -t["score"], t["name"]))
    for i, row in enumerate(table_, start=1):
        row["rank"] = i
    return {"sessions": per_session, "standings": table_}


def tonight(hands: list[dict[str, Any]], penalties: list[dict[str, Any]],
            now: float | None = None) -> list[dict[str, Any]]:
    """Tonight's standings across tables: hands received in the last 12 hours, by player."""
    since = (now or time.time()) - TONIGHT_HOURS * 3600
    recent = [h for h in hands if (h.get("received") or 0) >= since]
    scores: dict[str, dict[str, Any]] = {}
    for hand in recent:
        for name, amount in net_by_name(hand).items():
            row = scores.setdefault(name, {"name": name, "score": 0, "hands": 0, "won": 0})
            row["score"] += amount
            row["hands"] += 1
        if hand.get("winner") is not None:
            winner = who(hand.get("names"), str(hand["table"]), hand["winner"])
            scores[winner]["won"] += 1
    keys = {(h["table"], h["session"]) for h in recent}
    for penalty in penalties:
        if (penalty["table"], penalty["session"]) not in keys:
            continue
        for name, amount in penalty_by_name(penalty).items():
            scores.setdefault(name, {"name": name, "score": 0, "hands": 0, "won": 0})
            scores[name]["score"] += amount
    rows = sorted(scores.values(), key=lambda r: (-r["score"], r["name"]))
    for i, row in enumerate(rows, start=1):
        row["rank"] = i
    return rows


def player_page(name: str, hands: list[dict[str, Any]], penalties: list[dict[str, Any]],
                sessions: list[dict[str, Any]]) -> dict[str, Any]:
    """One player's sessions, wins, self-drawn wins, deal-ins, largest and limit hands, and the
    balance after each hand played (for the chart)."""
    key = name.casefold()
    stats = {"won": 0, "self_drawn": 0, "dealt_in": 0, "largest": 0, "limit_hands": 0,
             "hands": 0}
    balance: list[dict[str, Any]] = []
    running = 0
    for hand in hands:
        names = hand.get("names") or {}
        seat = next((p for p in POSITIONS if str(names.get(p) or "").casefold() == key), None)
        if seat is None:
            continue
        stats["hands"] += 1
        running += int((hand.get("net") or {}).get(seat, 0))
        balance.append({"table": hand["table"], "session": hand["session"],
                        "number": hand["number"], "balance": running})
        if hand.get("winner") is not None and str(hand["winner"]) == seat:
            stats["won"] += 1
            stats["largest"] = max(stats["largest"], int((hand.get("scores") or {}).get(seat, 0)))
            stats["limit_hands"] += 1 if hand.get("limit_hand") else 0
            stats["self_drawn"] += 1 if hand.get("win_source") in SELF_DRAWN else 0
        elif (hand.get("win_source") in DEALT_IN
              and str(hand.get("discarder")) == seat):
            stats["dealt_in"] += 1
    played = league(hands, penalties, sessions)["sessions"]
    mine = [{"table": s["table"], "session": s["session"], "started": s["started"], **p}
            for s in played for p in s["players"] if p["name"].casefold() == key]
    return {"name": name, "statistics": stats, "sessions": mine, "balance": balance}
