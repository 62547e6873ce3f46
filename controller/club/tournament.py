"""Tournament mode: a seating plan with as few repeat meetings as it can find, rounds with a
timer sent to every table, rankings per round and final, and the EMA ranking CSV.

A round's result at a table: the hands that table finished after the round began, up to and
including the first hand finished after time-up (the hand in play then is played out).
"""

from __future__ import annotations

import csv
import io
import itertools
import random
import time
from collections import Counter
from typing import Any

from controller.club.standings import net_by_name, penalty_by_name, rank_points

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


def round_ranking(hands: list[dict[str, Any]], penalties: list[dict[str, Any]],
                  seating: dict[str, list[str]]) -> list[dict[str, Any]]:
    """Per player of the round: table, place, table points (4/2/1/0) and score."""
    rows = []
    for table, names in seating.items():
        scores = dict.fromkeys(names, 0)
        sessions = set()
        for hand in hands:
            if hand["table"] != table:
                continue
            sessions.add(hand["session"])
            for name, amount in net_by_name(hand).items():
                if name in scores:
                    scores[name] += amount
        for penalty in penalties:
            if penalty["table"] == table and penalty["session"] in sessions:
                for name, amount in penalty_by_name(penalty).items():
                    if name in scores:
                        scores[name] += amount
        for name, r in rank_points(scores).items():
            rows.append({"name": name, "table": table, "place": r["place"],
                         "table_points": r["points"], "score": r["score"]})
    return sorted(rows, key=lambda r: (-r["table_points"], -r["score"], r["name"]))


def final_ranking(rounds: list[list[dict[str, Any]]], roster: dict[str, dict[str, str]]
                  ) -> list[dict[str, Any]]:
    totals: dict[str, dict[str, Any]] = {}
    for rnd in rounds:
        for row in rnd:
            t = totals.setdefault(row["name"], {"name": row["name"], "table_points": 0.0,
                                                "score": 0})
            t["table_points"] += row["table_points"]
            t["score"] += row["score"]
    out = sorted(totals.values(), key=lambda r: (-r["table_points"], -r["score"], r["name"]))
    for i, row in enumerate(out, start=1):
        info = roster.get(row["name"].casefold()) or {}
        row.update(rank=i, ema=info.get("ema", ""), country=info.get("country", ""))
    return out


def ema_csv(ranking: list[dict[str, Any]]) -> str:
    """The EMA ranking layout: rank, name, EMA number, country, table points, score."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["rank", "name", "EMA number", "country", "table points", "score"])
    for row in ranking:
        points = row["table_points"]
        writer.writerow([row["rank"], row["name"], row["ema"], row["country"],
                         int(points) if float(points).is_integer() else f"{points:g}",
                         row["score"]])
    return buf.getvalue()
