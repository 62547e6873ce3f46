"""Tournament mode's numbers one by one (written from the mutation run of issue 29,
docs/testing.md), each worked out by hand from tournament.py's contracts and docs/club.md:
a multiple of 4 players of different names for 1-20 rounds, the round's hands from its start to
the first after time-up, the penalties given during them, rank points 4/2/1/0 with ties
sharing (RULES.md), table points only for finished tables, and the EMA ranking's layout."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from controller.club import tournament

NAMES = {"1": "Ann", "2": "Bo", "3": "Cai", "4": "Dee"}

PLAYERS = [f"P{i:02d}" for i in range(8)]


def test_a_tournament_is_a_multiple_of_4_players_of_different_names_for_1_to_20_rounds(
        ) -> None:
    for players, rounds, words in (
            (PLAYERS[:3], 1, "a tournament needs a multiple of 4 players, not 3"),
            (PLAYERS[:6], 1, "a tournament needs a multiple of 4 players, not 6"),
            ([], 1, "a tournament needs a multiple of 4 players, not 0"),
            (["Ann", "ann", "Bo", "Cai"], 1, "every player's name must differ"),
            (PLAYERS[:4], 0, "a tournament has 1-20 rounds"),
            (PLAYERS[:4], 21, "a tournament has 1-20 rounds")):
        with pytest.raises(tournament.TournamentError, match=f"^{words}$"):
            tournament.seating_plan(players, rounds, attempts=1)
    assert len(tournament.seating_plan(PLAYERS[:4], 20, attempts=1)) == 20


def test_four_players_meet_every_round() -> None:
    plan = tournament.seating_plan(["D", "C", "B", "A"], 3, attempts=5)
    assert [sorted(t) for rnd in plan for t in rnd] == [["A", "B", "C", "D"]] * 3
    got = tournament.repeats(plan)
    pairs = [["A", "B"], ["A", "C"], ["A", "D"], ["B", "C"], ["B", "D"], ["C", "D"]]
    assert got == {"pairs_meeting_twice": 6, "pairs": pairs, "extra_meetings": 12}
    assert tournament.repeats([[["A", "B", "C", "D"]], [["A", "E", "F", "G"]]]) == {
        "pairs_meeting_twice": 0, "pairs": [], "extra_meetings": 0}


def test_a_search_with_no_time_left_keeps_its_first_plan() -> None:
    """8 players, 3 rounds: some pair always meets twice, so only the budget ends the search;
    with none, the first plan is the answer, as with a single restart."""
    none_left = tournament.seating_plan(PLAYERS, 3, seed=3, budget=0.0)
    assert none_left == tournament.seating_plan(PLAYERS, 3, seed=3, attempts=1)
    for rnd in none_left:
        assert sorted(p for t in rnd for p in t) == PLAYERS


def test_a_round_keeps_each_tables_hands_from_its_start_to_the_first_after_time_up() -> None:
    hands = [{"table": t, "number": n, "received": at}
             for t, n, at in (("t1", 1, 5.0), ("t1", 2, 10.0), ("t1", 4, 90.0),
                              ("t1", 3, 50.0), ("t1", 5, 95.0), ("t2", 1, 91.0),
                              ("t2", 2, 99.0), ("t3", 1, None))]
    kept = tournament.round_hands(hands, ["t1", "t2", "t3"], started=10.0, ends_at=90.0)
    assert [(h["table"], h["number"]) for h in kept] == [
        ("t1", 2), ("t1", 3), ("t1", 4), ("t2", 1)]
    assert [h["number"] for h in tournament.round_hands(hands, ["t3"], 0.0, 1.0)] == [1]


def test_a_rounds_table_counts_the_penalties_given_during_its_hands() -> None:
    def hand(table: str, number: int) -> dict[str, Any]:
        return {"table": table, "session": 1, "number": number, "result": "washout",
                "winner": None, "names": dict(NAMES), "net": dict.fromkeys("1234", 0)}

    def deduction(table: str, at: int, seat: int, amount: int, session: int = 1
                  ) -> dict[str, Any]:
        return {"table": table, "session": session, "kind": "deduction", "hand": at,
                "seat": seat, "amount": amount, "names": dict(NAMES)}

    hands = [hand("t1", 3), hand("t1", 4), hand("t2", 1), hand("t2", 2)]
    penalties = [deduction("t1", 2, 1, 1), deduction("t1", 3, 2, 2), deduction("t1", 4, 3, 4),
                 deduction("t1", 5, 4, 8), deduction("t1", 3, 1, 16, session=2),
                 deduction("t2", 0, 1, 3), deduction("t2", 2, 2, 5)]
    seating = {"t1": PLAYERS[:4], "t2": PLAYERS[4:], "t3": PLAYERS[:4]}
    asked: list[tuple[str, int]] = []

    def is_finished(k: tuple[str, int]) -> bool:
        asked.append(k)
        return k[0] == "t1"

    tables = tournament.round_tables(hands, penalties, seating, is_finished)
    scores = {t: {p["seat"]: p["score"] for p in part["places"]} for t, part in tables.items()}
    # t1's round began at hand 3: penalties of hands 3-4 count; t2's at its first hand: a
    # penalty given before it (hand 0) counts too
    assert scores["t1"] == {"1": 0, "2": -2, "3": -4, "4": 0}
    assert scores["t2"] == {"1": -3, "2": -5, "3": 0, "4": 0}
    assert scores["t3"] == dict.fromkeys("1234", 0)
    assert {t: (p["finished"], p["hands"]) for t, p in tables.items()} == {
        "t1": (True, 2), "t2": (False, 2), "t3": (False, 0)}
    assert sorted(asked) == [("t1", 1), ("t2", 1)]
    assert {p["points"] for p in tables["t2"]["places"]} == {None}  # under way
    # seats 1 and 4 tied first at 0 share (4 + 2) / 2; seat 2 third, seat 3 last
    assert sorted(p["points"] for p in tables["t1"]["places"]) == [0.0, 1.0, 3.0, 3.0]


def test_the_final_ranking_sums_the_finished_tables_of_each_round() -> None:
    def got(name: str, table_points: float | None, score: int, finished: bool,
            **riichi: Any) -> dict[str, Any]:
        return {"name": name, "table": "t", "place": 1, "table_points": table_points,
                "score": score, "hands": 1, "finished": finished, **riichi}

    rounds = [[got("Ann", 4.0, 30, True), got("Bo", 2.0, 5, True), got("Eve", 4.0, 9, False)],
              [got("Ann", 0.0, -30, True), got("bo", 1.5, 7, True), got("Eve", None, 1, False)]]
    final = tournament.final_ranking(rounds, ["Bo", "Ann", "Cai"],
                                     {"bo": {"ema": "04120002", "country": "Sweden"}})
    assert [(r["rank"], r["name"], r["table_points"], r["score"], r["rounds"], r["ema"],
             r["country"]) for r in final] == [
        (1, "Ann", 4.0, 0, 2, "", ""), (2, "Bo", 3.5, 12, 2, "04120002", "Sweden"),
        (3, "Cai", 0.0, 0, 0, "", ""), (4, "Eve", 0.0, 0, 0, "", "")]
    riichi = [[got("Ann", 45.0, 30, True, result=45.0, points=45_000)],
              [got("Ann", -5.5, -3, True, result=-5.5, points=24_500)]]
    (ann,) = tournament.final_ranking(riichi, [], {})
    assert ann["result"] == 39.5 and ann["games"] == [
        {"round": 1, "place": 1, "points": 45_000, "result": 45.0},
        {"round": 2, "place": 1, "points": 24_500, "result": -5.5}]


def _csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_the_ema_csv_writes_table_points_as_short_numbers() -> None:
    ranking = [{"rank": 1, "name": "Ann", "ema": "1", "country": "SE", "table_points": 8.0,
                "score": 60}, {"rank": 2, "name": "Bo", "ema": "", "country": "",
                               "table_points": 2.5, "score": -1}]
    assert _csv(tournament.ema_csv(ranking)) == [
        ["rank", "name", "EMA number", "country", "table points", "score"],
        ["1", "Ann", "1", "SE", "8", "60"], ["2", "Bo", "", "", "2.5", "-1"]]
    assert tournament.ema_csv(ranking).count("\n") == 3  # one line ending each row


def test_the_riichi_ema_csv_ranks_by_result_with_a_column_group_per_game() -> None:
    def row(name: str, score: int, games: list[tuple[int, int, int, float]],
            **more: Any) -> dict[str, Any]:
        return {"name": name, "ema": name.lower(), "country": "SE", "score": score,
                "games": [{"round": r, "place": p, "points": pts, "result": res}
                          for r, p, pts, res in games], **more}

    ranking = [row("Ann", 10, [(1, 1, 45_000, 30.0), (2, 4, 20_000, -24.5)], result=5.5),
               row("Bo", 20, [(2, 1, 40_000, 5.5)], result=5.5),
               row("Cai", 0, [], result=-3.0), row("Dee", 0, [])]
    rows = _csv(tournament.ema_csv(ranking, "riichi"))
    assert rows[0] == ["rank", "name", "EMA number", "country", "result", "score",
                       "game 1 place", "game 1 points", "game 1 result",
                       "game 2 place", "game 2 points", "game 2 result"]
    assert rows[1:] == [
        ["1", "Bo", "bo", "SE", "5.5", "20", "", "", "", "1", "40000", "5.5"],
        ["2", "Ann", "ann", "SE", "5.5", "10", "1", "45000", "30", "4", "20000", "-24.5"],
        ["3", "Dee", "dee", "SE", "0", "0", "", "", "", "", "", ""],
        ["4", "Cai", "cai", "SE", "-3", "0", "", "", "", "", "", ""]]
    assert _csv(tournament.ema_csv([], "riichi")) == [
        ["rank", "name", "EMA number", "country", "result", "score"]]


def _hand(table: str, number: int, names: list[str | None], net: list[int]) -> dict[str, Any]:
    return {"table": table, "session": 1, "number": number, "result": "mahjong", "winner": 1,
            "names": dict(zip("1234", names, strict=True)),
            "net": dict(zip("1234", net, strict=True))}


def test_a_rounds_ranking_is_by_table_points_then_score_then_name() -> None:
    hands = [_hand("t1", 1, ["Ann", "Bo", "Cai", None], [30, -10, -10, -10]),
             _hand("t2", 1, ["Eve", "Fay", "Gus", "Hal"], [0, 5, -5, 0])]
    seating = {"t1": ["Ann", "Bo", "Cai", "Dee"], "t2": ["Eve", "Fay", "Gus", "Hal"]}
    tables = tournament.round_tables(hands, [], seating, lambda k: k[0] == "t1")
    rows = tournament.round_ranking(tables)
    # t1 finished: Ann first (4); Bo, Cai and the anonymous seat tied second: (2+1+0)/3 each;
    # t2 under way: no table points (counted as 0 for the order), Eve and Hal tied second
    assert [(r["name"], r["table"], r["place"], r["table_points"], r["score"], r["hands"],
             r["finished"]) for r in rows] == [
        ("Ann", "t1", 1, 4.0, 30, 1, True), ("Bo", "t1", 2, 1.0, -10, 1, True),
        ("Cai", "t1", 2, 1.0, -10, 1, True), ("Fay", "t2", 1, None, 5, 1, False),
        ("Eve", "t2", 2, None, 0, 1, False), ("Hal", "t2", 2, None, 0, 1, False),
        ("Gus", "t2", 4, None, -5, 1, False)]
    assert all("result" not in r for r in rows)


def test_a_riichi_rounds_ranking_carries_each_persons_result_and_final_points() -> None:
    """Ann and Bo swap seats 1 and 2 after hand 1. Seats end on 38,000, 23,000, 29,000 and
    30,000 (30,000 plus the nets); results (RULES.md 11, uma +15/+5/-5/-15): seat 1 8 + 15 = 23,
    seat 4 0 + 5 = 5, seat 3 -1 - 5 = -6, seat 2 -7 - 15 = -22, each shared by hands held:
    Ann 23/3 - 44/3 = -7, Bo 46/3 - 22/3 = 8. A person's final points are those of the seat
    they held most hands of."""
    swapped: list[str | None] = ["Bo", "Ann", "Cai", "Dee"]
    hands = [_hand("t1", 1, ["Ann", "Bo", "Cai", "Dee"], [8000, -8000, 0, 0]),
             _hand("t1", 2, swapped, [0, 1000, -1000, 0]), _hand("t1", 3, swapped, [0] * 4)]
    tables = tournament.round_tables(hands, [], {"t1": ["Bo", "Ann", "Cai", "Dee"]},
                                     lambda _k: True,
                                     lambda _k: "riichi")
    rows = tournament.round_ranking(tables)
    assert [(r["name"], r["place"], r["points"]) for r in rows] == [
        ("Bo", 1, 38_000), ("Dee", 2, 30_000), ("Cai", 3, 29_000), ("Ann", 1, 23_000)]
    got = {r["name"]: (r["table_points"], r["result"]) for r in rows}
    assert got["Bo"] == (pytest.approx(8.0), pytest.approx(8.0, abs=0.05))
    assert got["Ann"] == (pytest.approx(-7.0), pytest.approx(-7.0, abs=0.05))
    assert got["Dee"] == (5.0, 5.0) and got["Cai"] == (-6.0, -6.0)


def test_swaps_between_tables_undo_a_repeat_meeting() -> None:
    from collections import Counter

    meet: Counter[frozenset[str]] = Counter({frozenset(("A", "B")): 1})
    tables = [["A", "B", "C", "D"], ["E", "F", "G", "H"]]
    tournament._improve(tables, meet)
    assert not {"A", "B"} <= set(tables[0]) and not {"A", "B"} <= set(tables[1])
    assert sorted(p for t in tables for p in t) == list("ABCDEFGH")
    assert len(tournament.seating_plan(PLAYERS[:4], 1, attempts=1)) == 1


def test_a_pair_meeting_exactly_twice_is_counted() -> None:
    plan = [[["A", "B", "C", "D"]], [["A", "B", "E", "F"]]]
    assert tournament.repeats(plan) == {"pairs_meeting_twice": 1, "pairs": [["A", "B"]],
                                        "extra_meetings": 1}


def test_a_round_begun_at_hand_2_leaves_out_the_penalties_of_hand_1() -> None:
    hands = [{"table": "t1", "session": 1, "number": n, "result": "washout", "winner": None,
              "names": dict(NAMES), "net": dict.fromkeys("1234", 0)} for n in (2, 3)]
    penalties = [{"table": "t1", "session": 1, "kind": "deduction", "hand": h, "seat": s,
                  "amount": 1, "names": dict(NAMES)} for h, s in ((1, 1), (2, 2))]
    tables = tournament.round_tables(hands, penalties, {"t1": PLAYERS[:4]}, lambda _k: True,
                                     lambda k: "riichi" if k == ("t1", 9) else None)
    assert {p["seat"]: p["score"] for p in tables["t1"]["places"]} == {
        "1": 0, "2": -1, "3": 0, "4": 0}
    assert "result" not in tables["t1"]["places"][0]  # the rule set of its own session asked
    anonymous = {**hands[0], "names": {"1": "Ann"}}
    (part,) = tournament.round_tables([anonymous], [], {"t1": PLAYERS[:4]}, lambda _k: True
                                      )["t1"]["places"][1]["holders"]
    assert part["label"].endswith(" at t1")


def test_the_final_ranking_rounds_results_to_tenths_and_breaks_ties_by_score() -> None:
    def got(name: str, score: int, **riichi: Any) -> dict[str, Any]:
        return {"name": name, "table": "t", "place": 2, "table_points": 1.0, "score": score,
                "hands": 1, "finished": True, **riichi}

    final = tournament.final_ranking([[got("Ann", 5), got("Bo", 9)]], [], {})
    assert [r["name"] for r in final] == ["Bo", "Ann"]
    (eve,) = tournament.final_ranking([[got("Eve", 0, result=-0.33, points=29_670)],
                                       [got("Eve", 0, result=-0.33, points=29_670)]], [], {})
    assert eve["result"] == -0.6  # tenths after each round: -0.3, then -0.63 -> -0.6


def test_the_csv_ends_lines_with_a_newline_only_and_ranks_a_small_result_above_none() -> None:
    row = {"rank": 1, "name": "Ann", "ema": "", "country": "", "table_points": 1.0, "score": 0}
    assert "\r" not in tournament.ema_csv([row])
    ranking = [{"name": "Dee", "ema": "", "country": "", "score": 0, "games": []},
               {"name": "Eve", "ema": "", "country": "", "score": 0, "games": [],
                "result": 0.5}]
    assert [r[1] for r in _csv(tournament.ema_csv(ranking, "riichi"))[1:]] == ["Eve", "Dee"]
    assert "\r" not in tournament.ema_csv(ranking, "riichi")
