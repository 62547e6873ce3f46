"""Tournament mode: a seating plan with as few repeat meetings as it can find, rounds with a
timer sent to every table, rankings per round and final, and the EMA ranking CSV.

A round's result at a table: the hands that table finished after the round began, up to and
including the first hand finished after time-up (the hand in play then is played out), counted
by whoever held each seat with the league's one computation (``controller.sessions.places``):
four places, table points only once the table's session is finished, anonymous seats never
ranked.
"""

from __future__ import annotations

import csv
import io
import itertools
import random
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from controller.sessions import places as pl

Plan = list[list[list[str]]]  # rounds -> tables -> four names


class TournamentError(ValueError):
    """A tournament request that cannot be met; the message says why."""


def _cost(meet: Counter[frozenset[str]], table: list[str]) -> int:
    return sum(meet[frozenset(p)] for p in itertools.combinations(table, 2))


def _round(players: list[str], meet: Counter[frozenset[str]], rng: random.Random
           ) -> list[list[str]]:
    left = players[:]
    rng.shuffle(left)
    tables: list[list[str]] = []
    while left:
        table = [left.pop(0)]
        while len(table) < 4:
            best = min(left, key=lambda p: (sum(meet[frozenset((p, q))] for q in table),
                                            rng.random()))
            left.remove(best)
            table.append(best)
        tables.append(table)
    _improve(tables, meet)
    return tables


def _improve(tables: list[list[str]], meet: Counter[frozenset[str]]) -> None:
    """Swap players between two tables while that lowers the repeat meetings."""
    better = True
    while better:
        better = False
        for a, b in itertools.combinations(range(len(tables)), 2):
            for i, j in itertools.product(range(4), range(4)):
                before = _cost(meet, tables[a]) + _cost(meet, tables[b])
                tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
                if _cost(meet, tables[a]) + _cost(meet, tables[b]) < before:
                    better = True
                else:
                    tables[a][i], tables[b][j] = tables[b][j], tables[a][i]


def repeats(plan: Plan) -> dict[str, Any]:
    """How many pairs meet more than once, and which."""
    meet: Counter[frozenset[str]] = Counter()
    for rnd in plan:
        for table in rnd:
            meet.update(frozenset(p) for p in itertools.combinations(table, 2))
    twice = sorted(sorted(p) for p, n in meet.items() if n > 1)
    return {"pairs_meeting_twice": len(twice), "pairs": twice,
            "extra_meetings": sum(n - 1 for n in meet.values() if n > 1)}


def seating_plan(players: list[str], rounds: int, seed: int = 0,
                 budget: float = 1.0, attempts: int | None = None) -> Plan:
    """R rounds of N/4 tables; tries random restarts within ``budget`` seconds and keeps the
    plan with the fewest repeat meetings (0 when one is found). With ``attempts``, that many
    restarts at most instead, whatever they take: the same plan on any machine."""
    if len(players) < 4 or len(players) % 4:
        raise TournamentError(f"a tournament needs a multiple of 4 players, not {len(players)}")
    if len({p.casefold() for p in players}) != len(players):
        raise TournamentError("every player's name must differ")
    if not 1 <= rounds <= 20:
        raise TournamentError("a tournament has 1-20 rounds")
    rng = random.Random(seed)
    best: Plan | None = None
    best_cost = None
    deadline = time.monotonic() + budget
    tried = 0

    def more() -> bool:
        if attempts is not None:
            return tried < attempts
        return time.monotonic() < deadline

    while best is None or (best_cost and more()):
        tried += 1
        meet: Counter[frozenset[str]] = Counter()
        plan: Plan = []
        for _ in range(rounds):
            rnd = _round(players, meet, rng)
            for table in rnd:
                meet.update(frozenset(p) for p in itertools.combinations(table, 2))
            plan.append(rnd)
        cost = repeats(plan)["extra_meetings"]
        if best_cost is None or cost < best_cost:
            best, best_cost = plan, cost
    assert best is not None
    return best


def round_hands(hands: list[dict[str, Any]], tables: list[str], started: float,
                ends_at: float) -> list[dict[str, Any]]:
    """Each table's hands of the round: finished after it began, up to and including the first
    one finished after time-up."""
    out = []
    for table in tables:
        mine = sorted((h for h in hands if h["table"] == table
                       and (h.get("received") or 0) >= started),
                      key=lambda h: h.get("received") or 0)
        for hand in mine:
            out.append(hand)
            if (hand.get("received") or 0) >= ends_at:
                break
    return out


def round_tables(hands: list[dict[str, Any]], penalties: list[dict[str, Any]],
                 seating: dict[str, list[str]], is_finished: Callable[[tuple[str, int]], bool],
                 ruleset: Callable[[tuple[str, int]], str | None] | None = None
                 ) -> dict[str, dict[str, Any]]:
    """Each table's part of a round (``hands``: the round's, from ``round_hands``): its four
    places over the round's hands and the penalties given during them, by whoever held each
    seat (``controller.sessions.places``, as the league counts), and whether it is finished:
    every session it played ended (by the operator, at time-up, or by the game's own end), as
    the league's ``is_finished`` says. Table points only for a finished one. ``ruleset``
    names a session's rule set: a riichi table's places carry each seat's final points and
    result (``places.riichi_places``)."""
    out = {}
    for table in seating:
        mine = [h for h in hands if h["table"] == table]
        spans: dict[int, tuple[int, int]] = {}
        for hand in mine:
            sid, number = int(hand["session"]), int(hand.get("number") or 0)
            first, last = spans.get(sid, (number, number))
            spans[sid] = (min(first, number), max(last, number))
        given = [p for p in penalties if p["table"] == table and _during(p, spans)]
        done = bool(spans) and all(is_finished((table, sid)) for sid in spans)
        family = ruleset((table, min(spans))) if ruleset is not None and spans else None
        out[table] = {"finished": done, "hands": len(mine),
                      "places": pl.session_places(mine, given, table=table, finished=done,
                                                  ruleset=family)}
    return out


def _during(penalty: dict[str, Any], spans: dict[int, tuple[int, int]]) -> bool:
    """A penalty given during the round's hands of its session (before the first hand of a
    session the round began with too)."""
    span = spans.get(int(penalty.get("session") or 0))
    if span is None:
        return False
    first = span[0] if span[0] > 1 else 0
    return first <= int(penalty.get("hand") or 0) <= span[1]


def round_ranking(tables: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Per person who held a seat in the round (anonymous seats are nobody): table, place,
    table points (their part of the place's 4/2/1/0; None while the table's session is under
    way), score and hands."""
    rows = []
    for table, part in tables.items():
        for pk, person in pl.people_of(part["places"]).items():
            row = {"name": person["name"], "table": table,
                   "place": min(person["places"]), "table_points": person["points"],
                   "score": person["score"], "hands": person["hands"],
                   "finished": part["finished"]}
            if "result" in person:  # riichi: the EMA's game result (place, points, result)
                row.update(result=person["result"], points=_final_points(part["places"], pk))
            rows.append(row)
    return sorted(rows, key=lambda r: (-(r["table_points"] or 0.0), -r["score"], r["name"]))


def _final_points(places: list[dict[str, Any]], pk: str) -> int | None:
    """The final points of the seat a person held most hands of (riichi places)."""
    held = [(h["hands"], place.get("final_points")) for place in places
            for h in place["holders"] if h["name"] and pl.key(h["name"]) == pk]
    return max(held, key=lambda x: x[0])[1] if held else None


def final_ranking(rounds: list[list[dict[str, Any]]], players: list[str],
                  roster: dict[str, dict[str, str]]) -> list[dict[str, Any]]:
    """Every tournament player and everyone else who held a seat in a round, by the sum of
    their table points, then score, over the FINISHED tables of the rounds (a table still
    playing its round counts nothing yet)."""
    totals: dict[str, dict[str, Any]] = {}

    def row(name: str) -> dict[str, Any]:
        return totals.setdefault(pl.key(name), {"name": name, "table_points": 0.0,
                                                "score": 0, "rounds": 0, "result": 0.0,
                                                "games": []})

    for name in players:
        row(name)
    for number, rnd in enumerate(rounds, start=1):
        for got in rnd:
            person = row(got["name"])
            if got["finished"]:
                person["table_points"] += got["table_points"] or 0.0
                person["score"] += got["score"]
                person["rounds"] += 1
                if "result" in got:
                    person["result"] = round(person["result"] + got["result"], 1)
                    person["games"].append({"round": number, "place": got["place"],
                                            "points": got["points"], "result": got["result"]})
    out = sorted(totals.values(), key=lambda r: (-r["table_points"], -r["score"], r["name"]))
    for i, ranked in enumerate(out, start=1):
        info = roster.get(pl.key(ranked["name"])) or {}
        ranked.update(rank=i, ema=info.get("ema", ""), country=info.get("country", ""))
    return out


def ema_csv(ranking: list[dict[str, Any]], family: str = "mcr") -> str:
    """The EMA ranking layout: rank, name, EMA number, country, then for mcr table points and
    score (ranked by table points, then score, as ``final_ranking`` orders); for riichi the
    result (thousands, uma included) and the score, ranked by result, then score, and per
    game (a round's hanchan) its place, final points and result (``_riichi_rows``)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    if family == "riichi":
        for line in _riichi_rows(ranking):
            writer.writerow(line)
        return buf.getvalue()
    writer.writerow(["rank", "name", "EMA number", "country", "table points", "score"])
    for row in ranking:
        points = row["table_points"]
        writer.writerow([row["rank"], row["name"], row["ema"], row["country"],
                         int(points) if float(points).is_integer() else f"{points:g}",
                         row["score"]])
    return buf.getvalue()


def _riichi_rows(ranking: list[dict[str, Any]]) -> list[list[Any]]:
    games = max((g["round"] for r in ranking for g in r.get("games") or []), default=0)
    head: list[Any] = ["rank", "name", "EMA number", "country", "result", "score"]
    for n in range(1, games + 1):
        head += [f"game {n} place", f"game {n} points", f"game {n} result"]
    out = [head]
    ordered = sorted(ranking, key=lambda r: (-r.get("result", 0.0), -r["score"], r["name"]))
    for rank, row in enumerate(ordered, start=1):
        line: list[Any] = [rank, row["name"], row["ema"], row["country"],
                           f"{row.get('result', 0.0):g}", row["score"]]
        by_round = {g["round"]: g for g in row.get("games") or []}
        for n in range(1, games + 1):
            g = by_round.get(n)
            line += [g["place"], g["points"], f"{g['result']:g}"] if g else ["", "", ""]
        out.append(line)
    return out
