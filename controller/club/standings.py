"""The club's pages by person: tonight's standings, the league (rank points 4/2/1/0 by place,
finished sessions only), a player's own page and a table's card, all from one computation
(``controller.sessions.places``: who held each seat in each hand, the four places of a
session and each holder's part).

An anonymous seat ("Seat N at TABLE") has a place and a part on its table's card and in the
session's places, but never enters tonight, the league or a player's page.
"""

from __future__ import annotations

import time
from typing import Any

from controller.sessions import places as pl

POSITIONS = pl.POSITIONS
rank_points = pl.rank_points
SELF_DRAWN = ("wall", "replacement", "dealt")
DEALT_IN = ("discard", "robbed_kong")
TONIGHT_HOURS = 12.0


def net_by_name(hand: dict[str, Any]) -> dict[str, int]:
    """A hand's nets by the label of who held each seat (``GET /api/club/hands``)."""
    table = str(hand.get("table"))
    out: dict[str, int] = {}
    for seat, name, net in pl.hand_shares(hand):
        text = pl.label(name, table, seat)
        out[text] = out.get(text, 0) + net
    return out


class Club:
    """Every session's places, made once from what the club holds."""

    def __init__(self, hands: list[dict[str, Any]], penalties: list[dict[str, Any]],
                 sessions: list[dict[str, Any]]) -> None:
        self.hands, self.penalties = hands, penalties
        self.info = {(str(s["table"]), int(s["session"])): s for s in sessions}
        self.grouped = pl.by_session(hands, penalties)
        self.places = {k: self._places(k, *v) for k, v in self.grouped.items()}

    @classmethod
    def combine(cls, parts: list[Club]) -> Club:
        """One club from each table's own (the service keeps one per table and rebuilds only
        the table whose facts moved on)."""
        club = cls([], [], [])
        for part in parts:
            club.hands += part.hands
            club.penalties += part.penalties
            club.info.update(part.info)
            club.grouped.update(part.grouped)
            club.places.update(part.places)
        return club

    def _places(self, k: tuple[str, int], hands: list[dict[str, Any]],
                penalties: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return pl.session_places(hands, penalties, table=k[0],
                                 finished=pl.finished(self.info.get(k), hands),
                                 ruleset=self.ruleset(k))

    def ruleset(self, k: tuple[str, int]) -> str | None:
        """The session's rule set (its session_start): riichi sessions rank by result."""
        got = (self.info.get(k) or {}).get("ruleset")
        return str(got) if got is not None else None

    def started(self, k: tuple[str, int]) -> float | None:
        at = (self.info.get(k) or {}).get("started")
        return float(at) if at is not None else None

    def is_finished(self, k: tuple[str, int]) -> bool:
        return pl.finished(self.info.get(k), self.grouped.get(k, ([], []))[0])

    def ordered(self) -> list[tuple[str, int]]:
        return sorted(self.places, key=lambda k: (self.started(k) or 0.0, k))

    def session_row(self, k: tuple[str, int]) -> dict[str, Any]:
        return {"table": k[0], "session": k[1], "started": self.started(k),
                "ended": (self.info.get(k) or {}).get("ended"),
                "finished": self.is_finished(k), "places": self.places[k]}

    # --- the pages ----------------------------------------------------------------------------

    def league(self, keys: set[tuple[str, int]] | None = None) -> dict[str, Any]:
        """Per session its four places; totals per person over the FINISHED sessions (a
        session under way is listed as provisional and counts nothing). A riichi session's
        points are its results (thousands, uma included; ``places.riichi_places``), also
        summed apart as ``result``."""
        rows: list[dict[str, Any]] = []
        totals: dict[str, dict[str, Any]] = {}
        for k in self.ordered():
            if keys is not None and k not in keys:
                continue
            rows.append(self.session_row(k))
            if not self.is_finished(k) or not self.grouped[k][0]:
                continue
            for pk, person in pl.people_of(self.places[k]).items():
                t = totals.setdefault(pk, {"name": person["name"], "sessions": 0,
                                           "points": 0.0, "score": 0})
                t["sessions"] += 1
                t["points"] += person["points"] or 0.0
                t["score"] += person["score"]
                if "result" in person:
                    t["result"] = round(t.get("result", 0.0) + person["result"], 1)
        table = sorted(totals.values(), key=lambda t: (-t["points"], -t["score"], t["name"]))
        for i, row in enumerate(table, start=1):
            row["rank"] = i
        return {"sessions": rows, "standings": table}

    def tonight(self, since: float) -> list[dict[str, Any]]:
        """By person: the hands received since ``since``, with their sessions' penalties.
        Ranked by score; riichi players by their result first (thousands, uma included, as
        the places stand: provisional until the hanchan ends), then by score."""
        recent = [h for h in self.hands if (h.get("received") or 0) >= since]
        rows: dict[str, dict[str, Any]] = {}
        for k, (hands, _) in pl.by_session(recent, []).items():
            mine = self.grouped[k][1]
            places = pl.session_places(hands, mine, table=k[0], ruleset=self.ruleset(k),
                                       finished=self.is_finished(k))
            for pk, person in pl.people_of(places).items():
                row = rows.setdefault(pk, {"name": person["name"], "score": 0, "hands": 0,
                                           "won": 0})
                if "result" in person:
                    row["result"] = round(row.get("result", 0.0) + person["result"], 1)
                row["score"] += person["score"]
                row["hands"] += person["hands"]
            for hand in hands:
                winner = pl.holder(hand.get("names"), hand.get("winner"))
                if hand.get("winner") is not None and winner:
                    rows[pl.key(winner)]["won"] += 1
        out = sorted(rows.values(), key=lambda r: (-r.get("result", 0.0), -r["score"],
                                                   r["name"]))
        for i, row in enumerate(out, start=1):
            row["rank"] = i
        return out

    def player(self, name: str) -> dict[str, Any]:
        """One person's sessions (place, rank points or provisional, score), statistics and
        balance after each hand and penalty, session by session."""
        pk = pl.key(name)
        stats = {"won": 0, "self_drawn": 0, "dealt_in": 0, "largest": 0, "limit_hands": 0,
                 "hands": 0}
        sessions, balance, running = [], [], 0
        for k in self.ordered():
            person = pl.people_of(self.places[k]).get(pk)
            if person is None:
                continue
            sessions.append({"table": k[0], "session": k[1], "started": self.started(k),
                             "finished": self.is_finished(k), "name": person["name"],
                             "place": min(person["places"]), "places": person["places"],
                             "points": person["points"], "score": person["score"],
                             "hands": person["hands"]})
            hands, penalties = self.grouped[k]
            by_number = {int(h.get("number") or 0): h for h in hands}
            for step in pl.person_steps(name, hands, penalties):
                if "number" in step:
                    _count(stats, by_number[step["number"]], step["seat"])
                running += step["amount"]
                what = {"number": step["number"]} if "number" in step else \
                    {"penalty": step["penalty"]}
                balance.append({"table": k[0], "session": k[1], **what, "balance": running})
        shown = sessions[-1]["name"] if sessions else name
        return {"name": shown, "statistics": stats, "sessions": sessions, "balance": balance}


def _count(stats: dict[str, int], hand: dict[str, Any], seat: str) -> None:
    stats["hands"] += 1
    if hand.get("winner") is not None and str(hand["winner"]) == seat:
        stats["won"] += 1
        stats["largest"] = max(stats["largest"], int((hand.get("scores") or {}).get(seat, 0)))
        stats["limit_hands"] += 1 if hand.get("limit_hand") else 0
        stats["self_drawn"] += 1 if hand.get("win_source") in SELF_DRAWN else 0
    elif hand.get("win_source") in DEALT_IN and str(hand.get("discarder")) == seat:
        stats["dealt_in"] += 1


def tonight_since(now: float | None = None) -> float:
    return (time.time() if now is None else now) - TONIGHT_HOURS * 3600


def card(club: Club, table: str, session: Any, names: dict[str, Any]) -> dict[str, Any]:
    """A table card's numbers (``club``: at least this table's sessions): its session's four
    places with each holder's part, and for each seat the person sitting there now with their
    score in this session (an anonymous seat: its anonymous part)."""
    k = (table, session) if isinstance(session, int) else None
    places = club.places.get(k) if k is not None else None
    if places is None:
        places = pl.session_places([], [], table=table)
    seats = pl.seated(places, names, table)
    done = club.is_finished(k) if k is not None and k in club.places else False
    return {"places": places, "seats": seats, "finished": done}
