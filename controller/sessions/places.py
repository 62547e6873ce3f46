"""Numbers by person, computed once for every page (the table's board and exports, the club's
table cards, tonight, the league and the player pages): who held each seat in each hand, the
four places of a session with each holder's part, and rank points.

A hand belongs to whoever held the seat when it was played (the names the hand records, as
the operator's seat-holder corrections left them); a penalty to whoever held the seat when it
was given (the names it records). A seat nobody named is anonymous ("Seat 1 at green"): it has
a place and a part, but no person. Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from controller.game.riichi_end import hanchan_result
from controller.scoring.rulesets.riichi import RIICHI_DEPOSIT, START_POINTS

POSITIONS = ("1", "2", "3", "4")
RANK_POINTS = (4.0, 2.0, 1.0, 0.0)


def holder(names: dict[str, Any] | None, position: Any) -> str | None:
    """The name recorded at a seat, spaces tidied; None for an anonymous seat."""
    raw = (names or {}).get(str(position))
    return _tidy(raw) if isinstance(raw, str) else (_tidy(str(raw)) if raw is not None else None)


@lru_cache(maxsize=4096)
def _tidy(raw: str) -> str | None:
    return " ".join(raw.split()) or None


@lru_cache(maxsize=4096)
def key(name: str) -> str:
    """Names are one person however they are capitalised (the table compares them so)."""
    return " ".join(name.split()).casefold()


def label(name: str | None, table: str | None, position: Any) -> str:
    if name:
        return name
    return f"Seat {position} at {table}" if table else f"Seat {position}"


def hand_shares(hand: dict[str, Any]) -> list[tuple[str, str | None, int]]:
    """(seat, holder, net) of one finished hand."""
    net = hand.get("net") or {}
    return [(p, holder(hand.get("names"), p), int(net.get(p, 0) or 0)) for p in POSITIONS]


def penalty_shares(penalty: dict[str, Any]) -> list[tuple[str, str | None, int]]:
    """(seat, holder, amount) of one penalty: a deduction comes off its seat, a transfer moves
    points between seats; a penalty taken back counts nothing."""
    if penalty.get("cancelled"):
        return []
    names = penalty.get("names")
    out: list[tuple[str, str | None, int]] = []
    if penalty.get("kind") == "deduction" and penalty.get("seat") is not None:
        seat = str(penalty["seat"])
        out.append((seat, holder(names, seat), -int(penalty.get("amount") or 0)))
    for pay in penalty.get("payments") or []:
        amount = int(pay.get("amount") or 0)
        out.append((str(pay.get("from")), holder(names, pay.get("from")), -amount))
        out.append((str(pay.get("to")), holder(names, pay.get("to")), amount))
    return [s for s in out if s[0] in POSITIONS]


def rank_points(scores: dict[str, int]) -> dict[str, dict[str, Any]]:
    """Place and rank points by score: 4/2/1/0; tied entries share the points of the places
    they hold together (two tied first: (4 + 2) / 2 = 3 each)."""
    ordered = sorted(scores.items(), key=lambda kv: -kv[1])
    out: dict[str, dict[str, Any]] = {}
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and ordered[j][1] == ordered[i][1]:
            j += 1
        points = [RANK_POINTS[k] if k < len(RANK_POINTS) else 0.0 for k in range(i, j)]
        for name, score in ordered[i:j]:
            out[name] = {"place": i + 1, "points": sum(points) / len(points), "score": score}
        i = j
    return out


class _Part:
    """One holder's part of one seat in one session."""

    def __init__(self, name: str | None, text: str) -> None:
        self.name, self.label = name, text
        self.numbers: list[int] = []
        self.score = 0

    def json(self, points: float | None) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "hands": len(self.numbers),
                "numbers": self.numbers, "score": self.score, "points": points}


def session_places(hands: Iterable[dict[str, Any]], penalties: Iterable[dict[str, Any]], *,
                   table: str | None = None, finished: bool = False,
                   ruleset: str | None = None) -> list[dict[str, Any]]:
    """The session's four places, best first: the seat, its place, score and rank points, and
    each holder's part (hands held, their numbers, score, share of the rank points: the place's
    points by hands held; all of it to a seat's only holder). Rank points are None while the
    session is under way (provisional). A ``riichi`` session ranks by its result instead
    (``riichi_places``)."""
    hands, penalties = list(hands), list(penalties)
    parts = _parts(hands, penalties, table)
    scores = {p: sum(x.score for x in parts[p].values()) for p in POSITIONS}
    if ruleset == "riichi":
        return riichi_places(parts, scores, hands, penalties, finished)
    ranks = rank_points(scores)
    places = []
    for seat in sorted(POSITIONS, key=lambda p: (ranks[p]["place"], p)):
        points = ranks[seat]["points"] if finished else None
        places.append(_place(parts[seat], seat, ranks[seat]["place"], scores[seat], points))
    return places


def _place(parts: dict[str, _Part], seat: str, place: int, score: int, points: float | None,
           **extra: Any) -> dict[str, Any]:
    played = sum(len(x.numbers) for x in parts.values())
    holders = [x.json(_share(points, x, played, len(parts))) for x in parts.values()]
    result = extra.get("result")
    if result is not None:  # riichi: each holder's share of the result, as of the points
        for h, x in zip(holders, parts.values(), strict=True):
            h["result"] = _share(result, x, played, len(parts))
    return {"seat": seat, "place": place, "score": score, "points": points, **extra,
            "holders": holders}


def riichi_places(parts: dict[str, dict[str, _Part]], scores: dict[str, int],
                  hands: list[dict[str, Any]], penalties: list[dict[str, Any]],
                  finished: bool) -> list[dict[str, Any]]:
    """A riichi session (RULES.md 11): the places by points (30,000 + the nets; once finished,
    the deposits left on the table go to first place), each with ``result`` in thousands, uma
    and chombo included (the game's own computation, ``riichi_end.hanchan_result``); while
    under way the result is provisional (the uma of the places as they stand, the deposits
    still on the table). A finished session's ``points`` (what the league adds up) is its
    result, as the EMA ranks riichi; None while under way. The deposits on the table are
    what the hands' nets lack: every net sums to minus them (FORMATS.md replay)."""
    nets = sum(int(v or 0) for h in hands for v in (h.get("net") or {}).values())
    sticks = -nets // RIICHI_DEPOSIT
    chombo = [sum(1 for x in penalties if x.get("kind") == "chombo" and not x.get("cancelled")
                  and str(x.get("seat")) == p) for p in POSITIONS]
    got = hanchan_result([START_POINTS + scores[p] for p in POSITIONS], max(sticks, 0), chombo,
                         ended=finished)
    points = got["points"]
    ranks = rank_points(points)
    return [_place(parts[seat], seat, ranks[seat]["place"], scores[seat],
                   got["result"][seat] if finished else None, result=got["result"][seat],
                   final_points=points[seat], uma=got["uma"][seat],
                   chombo=got["penalties"][seat])
            for seat in sorted(POSITIONS, key=lambda p: (ranks[p]["place"], p))]


def _parts(hands: list[dict[str, Any]], penalties: list[dict[str, Any]],
           table: str | None) -> dict[str, dict[str, _Part]]:
    """Each seat's holders' parts: the hands each held and its score."""
    parts: dict[str, dict[str, _Part]] = {p: {} for p in POSITIONS}

    def part(seat: str, name: str | None) -> _Part:
        k = key(name) if name else ""
        if k not in parts[seat]:
            parts[seat][k] = _Part(name, label(name, table, seat))
        return parts[seat][k]

    for hand in sorted(hands, key=lambda h: int(h.get("number") or 0)):
        for seat, name, net in hand_shares(hand):
            held = part(seat, name)
            held.numbers.append(int(hand.get("number") or 0))
            held.score += net
    for penalty in penalties:
        for seat, name, amount in penalty_shares(penalty):
            part(seat, name).score += amount
    return parts


def _share(points: float | None, part: _Part, played: int, holders: int) -> float | None:
    if points is None:
        return None
    if played == 0:
        return points / holders
    return points * len(part.numbers) / played


def people_of(places: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each named person's numbers in one session (every part they held, at any seat):
    name, score, hands, rank points (None while provisional) and the places they held."""
    out: dict[str, dict[str, Any]] = {}
    for place in places:
        for part in place["holders"]:
            if part["name"] is None:
                continue  # an anonymous seat is nobody's history
            row = out.setdefault(key(part["name"]), {
                "name": part["name"], "score": 0, "hands": 0, "points": None, "places": []})
            if part.get("result") is not None:  # riichi: the result in thousands
                row["result"] = round(row.get("result", 0.0) + part["result"], 1)
            row["score"] += part["score"]
            row["hands"] += part["hands"]
            row["places"].append(place["place"])
            if part["points"] is not None:
                row["points"] = (row["points"] or 0.0) + part["points"]
    return out


def seated(places: list[dict[str, Any]], names: dict[str, Any] | None,
           table: str | None = None) -> dict[str, dict[str, Any]]:
    """Who sits at each seat now and their score in this session (the table's seat heads,
    the seat page's "my total", the club's table card): a named person's whole session (every
    part they held, at any seat, as ``people_of`` counts it); an anonymous seat its anonymous
    part."""
    people = people_of(places)
    out: dict[str, dict[str, Any]] = {}
    for seat in POSITIONS:
        name = holder(names, seat)
        if name:
            score = (people.get(key(name)) or {}).get("score", 0)
        else:
            parts: list[dict[str, Any]] = next(
                (x["holders"] for x in places if x["seat"] == seat), [])
            score = next((h["score"] for h in parts if h["name"] is None), 0)
        out[seat] = {"name": name, "label": label(name, table, seat), "score": score}
    return out


def person_steps(name: str, hands: Iterable[dict[str, Any]],
                 penalties: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One person's amounts in one session, in order (a player page's balance): each hand they
    held (``number``, ``seat``, ``amount``: the hand's net at their seat) and each penalty that
    touched them (``penalty``, ``amount``) after the hand it was given in."""
    pk = key(name)
    out: list[tuple[float, dict[str, Any]]] = []
    for hand in hands:
        for seat, who, net in hand_shares(hand):
            if who and key(who) == pk:
                number = int(hand.get("number") or 0)
                out.append((number, {"number": number, "seat": seat, "amount": net}))
    for penalty in penalties:
        mine = [a for _, who, a in penalty_shares(penalty) if who and key(who) == pk]
        if mine:
            out.append((int(penalty.get("hand") or 0) + 0.5,
                        {"penalty": penalty.get("index"), "amount": sum(mine)}))
    return [step for _, step in sorted(out, key=lambda x: x[0])]


def by_session(hands: Iterable[dict[str, Any]], penalties: Iterable[dict[str, Any]]
               ) -> dict[tuple[str, int], tuple[list[dict[str, Any]], list[dict[str, Any]]]]:
    """(table, session) -> (its hands, its penalties)."""
    out: dict[tuple[str, int], tuple[list[dict[str, Any]], list[dict[str, Any]]]] = \
        defaultdict(lambda: ([], []))
    for hand in hands:
        out[(str(hand.get("table")), int(hand.get("session") or 0))][0].append(hand)
    for penalty in penalties:
        out[(str(penalty.get("table")), int(penalty.get("session") or 0))][1].append(penalty)
    return dict(out)


def finished(session: dict[str, Any] | None, hands: Iterable[dict[str, Any]]) -> bool:
    """Ended by the operator (the session has an end) or by the game's own end (a hand that
    ended the game)."""
    if session is not None and session.get("ended") is not None:
        return True
    return any(h.get("game_over") for h in hands)
