"""The club's pages' numbers one by one (standings.py; written from the mutation run of issue
29, docs/testing.md), each worked out by hand from RULES.md's 4/2/1/0 with ties sharing and
RULES.md 11's riichi results, and from docs/club.md "Standings and the league": tonight, the
league over finished sessions, a player's page, a table's card."""

from __future__ import annotations

from typing import Any

from controller.club import standings

NAMES = {"1": "Ann", "2": "Bo", "3": "Cai", "4": "Dee"}


def _played(number: int, net: list[int], received: float, **extra: Any) -> dict[str, Any]:
    names = {**NAMES, "4": None}  # seat 4 anonymous: never in tonight, the league or a page
    return {"table": "t", "session": 1, "number": number, "result": "mahjong", "winner": 1,
            "net": dict(zip("1234", net, strict=True)), "names": names,
            "scores": {"1": 0, "2": 0, "3": 0, "4": 0}, "received": received, **extra}


def test_a_hands_nets_by_name_label_an_anonymous_seat_by_its_table() -> None:
    assert standings.net_by_name(_played(1, [30, -10, -10, -10], 1.0)) == {
        "Ann": 30, "Bo": -10, "Cai": -10, "Seat 4 at t": -10}
    twice = {**_played(1, [30, -10, -10, -10], 1.0), "names": {"1": "Ann", "2": "ANN"}}
    assert standings.net_by_name(twice) == {"Ann": 30, "ANN": -10, "Seat 3 at t": -10,
                                            "Seat 4 at t": -10}


def test_tonight_counts_the_hands_received_since_and_their_sessions_penalties() -> None:
    hands = [_played(1, [30, -10, -10, -10], 10.0),  # before tonight
             _played(2, [-40, 40, 0, 0], 100.0, winner=2),
             _played(3, [0, 0, 0, 0], 101.0, winner=None, result="washout")]
    penalty = {"table": "t", "session": 1, "kind": "deduction", "hand": 1, "seat": 3,
               "amount": 5, "names": NAMES}
    club = standings.Club(hands, [penalty], [])
    rows = club.tonight(since=100.0)
    assert [(r["rank"], r["name"], r["score"], r["hands"], r["won"]) for r in rows] == [
        (1, "Bo", 40, 2, 1), (2, "Cai", -5, 2, 0), (3, "Ann", -40, 2, 0)]
    assert [r["name"] for r in standings.Club(
        [_played(1, [5, 0, 0, -5], 1.0)], [], []).tonight(0.0)] == ["Ann", "Bo", "Cai"]
    assert club.tonight(since=102.0) == []
    assert standings.tonight_since(100_000.0) == 100_000.0 - 12 * 3600
    import time

    before = time.time()
    since = standings.tonight_since()  # now by the clock: the last 12 hours
    assert before - 12 * 3600 <= since <= time.time() - 12 * 3600


def test_a_player_page_counts_wins_deal_ins_and_the_largest_hand() -> None:
    hands = [_played(1, [30, -10, -10, -10], 1.0, win_source="replacement",
                     scores={"1": 12, "2": 0, "3": 0, "4": 0}, limit_hand="heavenly"),
             _played(2, [-40, 40, 0, 0], 2.0, winner=2, win_source="robbed_kong",
                     discarder=1),
             _played(3, [50, 0, -50, 0], 3.0, win_source="dealt",
                     scores={"1": 25, "2": 0, "3": 0, "4": 0}),
             _played(4, [-8, 0, 8, 0], 4.0, winner=3, win_source="discard", discarder=1),
             _played(5, [-8, 8, 0, 0], 5.0, winner=2, win_source="wall")]
    penalty = {"table": "t", "session": 1, "index": 4, "kind": "transfer", "hand": 2,
               "names": NAMES, "payments": [{"from": 1, "to": 2, "amount": 3}]}
    page = standings.Club(hands, [penalty], [{"table": "t", "session": 1, "started": 1.0,
                                              "ended": 6.0}]).player("ANN")
    assert page["name"] == "Ann"
    assert page["statistics"] == {"won": 2, "self_drawn": 2, "dealt_in": 2, "largest": 25,
                                  "limit_hands": 1, "hands": 5}
    assert [b.get("number", b.get("penalty")) for b in page["balance"]] == [1, 2, 4, 3, 4, 5]
    assert [b["balance"] for b in page["balance"]] == [30, -10, -13, 37, 29, 21]
    (session,) = page["sessions"]
    # seats: Ann 30 - 40 + 50 - 8 - 8 - 3 = 21, Bo -10 + 40 + 8 + 3 = 41: Ann second, 2 points
    assert (session["place"], session["score"], session["hands"], session["points"]) == (
        2, 21, 5, 2.0)
    assert standings.Club(hands, [], []).player("Nobody") == {
        "name": "Nobody", "statistics": dict.fromkeys(
            ("won", "self_drawn", "dealt_in", "largest", "limit_hands", "hands"), 0),
        "sessions": [], "balance": []}


def test_a_table_card_shows_who_sits_now_with_their_score() -> None:
    hands = [_played(1, [30, -10, -10, -10], 1.0)]
    club = standings.Club(hands, [], [{"table": "t", "session": 1, "started": 1.0,
                                       "ended": None, "ruleset": "dmjl"}])
    card = standings.card(club, "t", 1, {"1": "Bo", "2": "Ann", "3": None})
    assert card["finished"] is False and [p["seat"] for p in card["places"]] == [
        "1", "2", "3", "4"]
    assert {s: (v["label"], v["score"]) for s, v in card["seats"].items()} == {
        "1": ("Bo", -10), "2": ("Ann", 30), "3": ("Seat 3 at t", 0), "4": ("Seat 4 at t", -10)}
    assert [h["label"] for h in card["places"][3]["holders"]] == ["Seat 4 at t"]
    empty = standings.card(club, "t", None, {})
    assert empty["finished"] is False and {p["score"] for p in empty["places"]} == {0}
    unplayed = standings.card(club, "t", 2, {})  # a session the club holds nothing of
    assert [(p["seat"], p["score"], p["holders"]) for p in unplayed["places"]] == [
        (s, 0, []) for s in "1234"] and unplayed["finished"] is False
    assert (club.ruleset(("t", 1)), club.ruleset(("t", 9)), club.started(("t", 1)),
            club.started(("t", 9))) == ("dmjl", None, 1.0, None)
    done = standings.Club([{**hands[0], "game_over": True}], [], [])
    assert standings.card(done, "t", 1, {})["finished"] is True


def test_one_club_from_each_tables_own_is_the_club_of_all() -> None:
    t = [_played(1, [30, -10, -10, -10], 1.0), _played(2, [-4, 4, 0, 0], 2.0)]
    u = [{**_played(1, [0, 8, -8, 0], 1.5), "table": "u"}]
    sessions = [{"table": "t", "session": 1, "started": 2.0, "ended": 3.0},
                {"table": "u", "session": 1, "started": 1.0, "ended": 3.0}]
    whole = standings.Club(t + u, [], sessions)
    parts = standings.Club.combine([standings.Club(t, [], sessions[:1]),
                                    standings.Club(u, [], sessions[1:])])
    assert parts.league() == whole.league()
    assert [(s["table"], s["session"]) for s in whole.league()["sessions"]] == [
        ("u", 1), ("t", 1)]  # by start
    assert whole.league(keys={("t", 1)})["sessions"][0]["table"] == "t"
    assert len(whole.league(keys={("t", 1)})["sessions"]) == 1
    assert parts.tonight(0.0) == whole.tonight(0.0)
    assert parts.player("Bo") == whole.player("Bo")
    # by hand, 4/2/1/0 with ties sharing: at t Ann 26 (4), Bo -6 (2), Cai and seat 4 -10
    # (0.5 each); at u Bo 8 (4), Ann and seat 4 0 (1.5 each), Cai -8 (0)
    table = [(r["rank"], r["name"], r["sessions"], r["points"], r["score"])
             for r in whole.league()["standings"]]
    assert table == [(1, "Bo", 2, 6.0, 2), (2, "Ann", 2, 5.5, 26), (3, "Cai", 2, 0.5, -18)]



def test_a_finished_riichi_session_enters_the_league_by_its_results() -> None:
    """The swap of tests/club/test_club_tournament.py's riichi round: results Bo 8, Dee 5,
    Cai -6, Ann -7 (RULES.md 11, worked out there); scores are the nets."""
    swapped = {"1": "Bo", "2": "Ann", "3": "Cai", "4": "Dee"}
    hands = [{**_played(1, [8000, -8000, 0, 0], 1.0), "names": dict(NAMES)},
             {**_played(2, [0, 1000, -1000, 0], 2.0), "names": swapped},
             {**_played(3, [0, 0, 0, 0], 3.0), "names": swapped}]
    session = {"table": "t", "session": 1, "started": 0.5, "ended": 4.0, "ruleset": "riichi"}
    league = standings.Club(hands, [], [session]).league()
    assert {k: v for k, v in league["sessions"][0].items() if k != "places"} == {
        "table": "t", "session": 1, "started": 0.5, "ended": 4.0, "finished": True}
    rows = [(r["rank"], r["name"], r["sessions"], round(r["points"], 6), r["score"],
             r["result"]) for r in league["standings"]]
    assert rows == [(1, "Bo", 1, 8.0, -8000, 8.0), (2, "Dee", 1, 5.0, 0, 5.0),
                    (3, "Cai", 1, -6.0, -1000, -6.0), (4, "Ann", 1, -7.0, 9000, -7.0)]
    tonight = standings.Club(hands, [], [session]).tonight(0.0)
    assert [(r["name"], r["result"]) for r in tonight] == [
        ("Bo", 8.0), ("Dee", 5.0), ("Cai", -6.0), ("Ann", -7.0)]


def test_a_player_page_lists_each_session_and_step_in_full() -> None:
    other = {**_played(1, [5, -5, 0, 0], 0.5), "table": "u",
             "names": {"1": "Fay", "2": "Gus", "3": None, "4": None}}
    mine = [_played(1, [30, -10, -10, -10], 1.0, win_source="discard", discarder=2),
            _played(2, [-6, 0, 6, 0], 2.0, winner=3, win_source="discard", discarder=2),
            _played(3, [9, -3, -3, -3], 3.0, win_source="wall")]
    sessions = [{"table": "u", "session": 1, "started": 0.5, "ended": None},
                {"table": "t", "session": 1, "started": 1.0, "ended": None}]
    page = standings.Club([other, *mine], [], sessions).player("Ann")
    assert page["sessions"] == [{"table": "t", "session": 1, "started": 1.0, "finished": False,
                                 "name": "Ann", "place": 1, "places": [1], "points": None,
                                 "score": 33, "hands": 3}]
    assert page["balance"] == [{"table": "t", "session": 1, "number": n, "balance": b}
                               for n, b in ((1, 30), (2, 24), (3, 33))]
    # a discard win is no self-drawn one; someone else's deal-in is not Ann's
    assert page["statistics"] == {"won": 2, "self_drawn": 1, "dealt_in": 0, "largest": 0,
                                  "limit_hands": 0, "hands": 3}


def test_tonight_adds_up_each_persons_sessions() -> None:
    first = [_played(1, [30, -10, -10, -10], 1.0, winner=1)]
    second = [{**_played(1, [-4, 4, 0, 0], 2.0, winner=2), "session": 2},
              {**_played(2, [-4, 4, 0, 0], 3.0, winner=2), "session": 2}]
    rows = standings.Club(first + second, [], []).tonight(0.0)
    assert [(r["name"], r["score"], r["hands"], r["won"]) for r in rows] == [
        ("Ann", 22, 3, 1), ("Bo", -2, 3, 2), ("Cai", -10, 3, 0)]
    no_time = {**_played(1, [1, -1, 0, 0], 1.0), "received": None}
    assert standings.Club([no_time], [], []).tonight(0.5) == []  # not known to be tonight


def test_tonight_gives_a_finished_riichi_sessions_deposits_to_first_place() -> None:
    """One riichi stick left on the table (the nets sum to -1,000). Finished, first place takes
    it: 34,000, 29,000, 29,000, 28,000; results (RULES.md 11) 4 + 15 = 19, -1 + 0 (2nd and 3rd
    share +5 and -5) = -1 twice, -2 - 15 = -17. Eve held seat 3 one hand of three: -1/3."""
    eve = {**NAMES, "3": "Eve"}
    hands = [{**_played(1, [3000, -1000, -1000, -2000], 1.0), "names": eve},
             {**_played(2, [0, 0, 0, 0], 2.0), "names": dict(NAMES)},
             {**_played(3, [0, 0, 0, 0], 3.0), "names": dict(NAMES)}]
    session = {"table": "t", "session": 1, "started": 0.5, "ended": 4.0, "ruleset": "riichi"}
    rows = standings.Club(hands, [], [session]).tonight(0.0)
    assert [(r["name"], r["result"]) for r in rows] == [
        ("Ann", 19.0), ("Eve", -0.3), ("Cai", -0.7), ("Bo", -1.0), ("Dee", -17.0)]
    league = standings.Club(hands, [], [session]).league()
    assert {r["name"]: r["result"] for r in league["standings"]} == {
        "Ann": 19.0, "Eve": -0.3, "Cai": -0.7, "Bo": -1.0, "Dee": -17.0}


def test_the_league_skips_a_session_under_way_and_breaks_ties_by_score() -> None:
    running = [{**_played(1, [9, -9, 0, 0], 0.5), "table": "u"}]
    done = [_played(1, [10, -20, 10, 0], 1.0)]
    sessions = [{"table": "u", "session": 1, "started": 0.5, "ended": None},
                {"table": "t", "session": 1, "started": 1.0, "ended": 2.0}]
    league = standings.Club(running + done, [], sessions).league()
    # t: Ann and Cai tied first on 10: (4 + 2) / 2 = 3 each; Bo last, 0
    assert [(r["name"], r["points"], r["score"]) for r in league["standings"]] == [
        ("Ann", 3.0, 10), ("Cai", 3.0, 10), ("Bo", 0.0, -20)]
    penalty = {"table": "t", "session": 1, "kind": "deduction", "hand": 1, "seat": 3,
               "amount": 1, "names": NAMES}
    shifted = standings.Club(done, [penalty], sessions[1:]).league()["standings"]
    assert [(r["name"], r["points"], r["score"]) for r in shifted] == [
        ("Ann", 4.0, 10), ("Cai", 2.0, 9), ("Bo", 0.0, -20)]
    tied = standings.Club([_played(1, [0, 5, 0, -5], 1.0)], [], sessions[1:]).league()
    assert [(r["name"], r["points"]) for r in tied["standings"]] == [
        ("Bo", 4.0), ("Ann", 1.5), ("Cai", 1.5)]

