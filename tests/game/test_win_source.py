"""How a hand was won, in the result: win_source (wall, discard, replacement, robbed_kong,
dealt) and the discarder (whose discard or added kong gave the Mahjong, else null)."""

from __future__ import annotations

from typing import Any

import pytest

from controller.game import public_view, replay, replay_summary
from controller.game.history import HandHistory, statistics
from tests.game.logbuilder import Log
from tests.game.scenarios import JUNK, SCENARIOS, dmjl_win_on_a_kong_replacement

#: (scenario, [(winner, win_source, discarder) of each hand])
EXPECTED = [
    ("example_a", [(2, "wall", None)]),
    ("example_b", [(2, "discard", 1), (3, "discard", 2), (4, "discard", 3), (1, "discard", 4),
                   (3, "wall", None)]),
    ("kongs_and_robbing", [(1, "robbed_kong", 4)]),
    ("heavenly_hand", [(1, "dealt", None)]),
    ("washout", [(None, None, None)]),
    ("mahjong_tie_highest_value", [(4, "discard", 1)]),
]


def _hands(events: list[dict[str, Any]]) -> list[tuple[Any, Any, Any]]:
    summary = replay_summary(replay(events)[0])
    return [(h["winner"], h["win_source"], h["discarder"]) for h in summary["hands"]]


@pytest.mark.parametrize(("name", "expected"), EXPECTED)
def test_replay_summary_says_how_each_hand_was_won(name: str, expected: list[Any]) -> None:
    assert _hands(SCENARIOS[name]().log.events) == expected


@pytest.mark.parametrize(("name", "expected"), EXPECTED)
def test_the_public_view_result_and_hands_say_it_too(name: str, expected: list[Any]) -> None:
    view = public_view(replay(SCENARIOS[name]().log.events)[0])
    result = view["hand"]["result"]
    assert (result["winner"], result["win_source"], result["discarder"]) == expected[-1]
    hands = [(h["winner"], h["win_source"], h["discarder"]) for h in view["hands"]]
    assert hands == expected


def test_mahjong_after_claiming_a_set_names_the_discarder() -> None:
    log = Log()
    log.deal({1: "1b 4b 7b 1c 9c 1d 4d ew sw ww nw 6c gd 9d",
              2: "6c6c 1b1b1b 2d3d4d 6d7d8d 9d9d", 3: JUNK[3], 4: JUNK[4]})
    log.discard(1, "6c").claim(2, "6c", "6c6c")
    log.declare(2, "mahjong")
    assert _hands(log.events) == [(2, "discard", 1)]


def test_a_win_on_a_kongs_replacement() -> None:
    log = dmjl_win_on_a_kong_replacement(second_kong=False)
    assert _hands(log.events) == [(1, "replacement", None)]


def test_a_hand_in_play_has_no_win_source_yet() -> None:
    log = Log().deal(JUNK)
    hand = replay_summary(replay(log.events)[0])["hands"][0]
    assert hand["result"] is None and hand["win_source"] is None and hand["discarder"] is None


def test_history_statistics_count_self_drawn_wins_and_dealing_in() -> None:
    """controller/web/history.py reads only the result's win_source and discarder."""
    hands = replay_summary(replay(SCENARIOS["example_b"]().log.events)[0])["hands"]
    hands += replay_summary(replay(SCENARIOS["kongs_and_robbing"]().log.events)[0])["hands"]
    stats = statistics(hands)
    assert {p: s["self_drawn"] for p, s in stats.items()} == {"1": 0, "2": 0, "3": 1, "4": 0}
    assert {p: s["dealt_in"] for p, s in stats.items()} == {"1": 1, "2": 1, "3": 1, "4": 2}
    assert {p: s["won"] for p, s in stats.items()} == {"1": 2, "2": 1, "3": 2, "4": 1}


def test_history_keeps_the_result_of_a_finished_hand() -> None:
    history = HandHistory()
    view = public_view(replay(SCENARIOS["kongs_and_robbing"]().log.events)[0])
    history.observe(view)
    entry = history.hands(view)[0]
    assert (entry["win_source"], entry["discarder"]) == ("robbed_kong", 4)
    assert history.facts(1) == {"win_source": "robbed_kong", "discarder": 4}
