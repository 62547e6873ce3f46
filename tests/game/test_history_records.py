"""The session's hand history (``controller.game.history``): finished hands kept from the public
view as they end and dropped when an undo reopens them, and the per-seat statistics of
docs/service.md's ``GET /api/hands`` (won, self_drawn, dealt_in, largest, limit_hands and the
running balance), here counted by hand for a written-out session."""

from __future__ import annotations

from functools import cache
from typing import Any

from controller import game
from controller.game.history import HandHistory, statistics
from tests.game.randomgame import random_session


@cache
def _views() -> tuple[dict[str, Any], ...]:
    """The public view after each event of three random hands of hua bao."""
    state, views = game.new_game(), []
    for event in random_session(seed=4, hands=3):
        state = game.apply(state, event).state
        views.append(game.public_view(state))
    return tuple(views)


def _results() -> dict[int, dict[str, Any]]:
    """Each hand's result as the view showed it when the hand was over."""
    return {v["hand"]["number"]: v["hand"]["result"] for v in _views()
            if (v.get("hand") or {}).get("phase") == "over"}


def test_each_finished_hand_keeps_its_summary_with_the_details_and_payments_of_its_end() -> None:
    history = HandHistory()
    for view in _views():
        history.observe(view)
    last = _views()[-1]
    results = _results()
    assert sorted(results) == [1, 2, 3]
    hands = history.hands(last)
    assert [h["number"] for h in hands] == [1, 2, 3]
    for summary, entry in zip(last["hands"], hands, strict=True):
        result = results[summary["number"]]
        assert entry == {**summary, "details": result["details"],
                         "payments": result["payments"]}
        assert history.facts(summary["number"]) == {"win_source": summary["win_source"],
                                                    "discarder": summary["discarder"]}
        assert history.hand(last, summary["number"]) == entry
    assert history.hand(last, 4) is None
    assert history.facts(4) == {}


def test_an_undo_that_reopens_a_hand_drops_it_and_keeps_the_others() -> None:
    views = _views()
    end3 = next(i for i, v in enumerate(views) if len(v["hands"]) == 3)
    history = HandHistory()
    for view in views[:end3 + 1]:
        history.observe(view)
    assert history.facts(3)
    reopened = views[end3 - 1]  # the view before hand 3 ended: what the undo brings back
    assert reopened["hand"]["phase"] != "over" and len(reopened["hands"]) == 2
    history.observe(reopened)
    assert history.facts(3) == {}
    assert history.facts(1) and history.facts(2)  # the hands still finished stay
    assert [h["number"] for h in history.hands(reopened)] == [1, 2]
    assert all(h["details"] for h in history.hands(reopened))
    history.observe(views[end3], {"discarder": 4})  # facts given with the view win
    assert history.facts(3)["discarder"] == 4


def test_hands_not_seen_ending_have_empty_details_and_a_summary_without_number_its_place() -> None:
    last = _views()[-1]
    fresh = HandHistory().hands(last)  # a history started after the hands ended
    assert fresh == [{**s, "details": {}, "payments": []} for s in last["hands"]]
    bare = {"hands": [{"result": "washout"}, {"result": "washout"}]}
    assert HandHistory().hands(bare) == [
        {"number": 1, "result": "washout", "details": {}, "payments": []},
        {"number": 2, "result": "washout", "details": {}, "payments": []}]
    assert HandHistory().hand(bare, 2) == bare["hands"][1] | {"number": 2, "details": {},
                                                             "payments": []}
    assert HandHistory().hands({}) == []
    # a hand keeps its own number wherever its summary stands in the list
    later = {"hands": [{"number": 7, "result": "washout"}]}
    assert HandHistory().hands(later) == [
        {"number": 7, "result": "washout", "details": {}, "payments": []}]
    assert HandHistory().hand(later, 7) is not None and HandHistory().hand(later, 1) is None


def _win(number: int, winner: int, source: str, discarder: int | None, net: dict[str, int],
         scores: dict[str, int] | None = None, limit: str | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"number": number, "result": "mahjong", "winner": winner,
                             "win_source": source, "discarder": discarder, "net": net}
    if scores is not None:
        entry["scores"] = scores
    if limit is not None:
        entry["details"] = {str(winner): {"score": {"limit_hand": limit}}}
    return entry


#: seven hands; records older than the scores (no ``scores`` or ``net`` entry for a seat) count 0
HANDS = [
    _win(1, 2, "wall", None, {"1": -40, "2": 120, "3": -40, "4": -40},
         {"1": 0, "2": 40, "3": 8, "4": 0}) | {"details": {"2": {"score": {"limit_hand": None}}}},
    {"number": 2, "result": "washout", "winner": None},
    _win(3, 3, "discard", 1, {"1": -1000, "3": 1000}, {"3": 1000}, "thirteen_orphans"),
    _win(4, 2, "robbed_kong", 4, {"2": 48, "4": -48}, {"2": 24}),
    _win(5, 2, "replacement", None, {"2": 30, "1": -30}, {"2": 30}),
    _win(6, 1, "dealt", None, {"1": 60, "2": -20, "3": -20, "4": -20}),
    _win(7, 3, "wall", None, {"3": 150, "1": -50, "2": -50, "4": -50}, {"3": 500},
         "all_honours"),
]


def test_statistics_counted_by_hand() -> None:
    assert statistics(HANDS) == {
        "1": {"won": 1, "self_drawn": 1, "dealt_in": 1, "largest": 0, "limit_hands": 0,
              "balance": [-40, -40, -1040, -1040, -1070, -1010, -1060]},
        "2": {"won": 3, "self_drawn": 2, "dealt_in": 0, "largest": 40, "limit_hands": 0,
              "balance": [120, 120, 120, 168, 198, 178, 128]},
        "3": {"won": 2, "self_drawn": 1, "dealt_in": 0, "largest": 1000, "limit_hands": 2,
              "balance": [-40, -40, 960, 960, 960, 940, 1090]},
        "4": {"won": 0, "self_drawn": 0, "dealt_in": 1, "largest": 0, "limit_hands": 0,
              "balance": [-40, -40, -40, -88, -88, -108, -158]},
    }
    empty = {"won": 0, "self_drawn": 0, "dealt_in": 0, "largest": 0, "limit_hands": 0,
             "balance": []}
    assert statistics([]) == {p: empty for p in ("1", "2", "3", "4")}
