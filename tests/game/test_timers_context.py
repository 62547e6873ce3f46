"""The call timers' due events (docs/game.md, "Timers": the claim window closes 3 s after a
discard, each overrun reported once, nothing enforced) at their edges, and the engine context's
small helpers: how many copies of a tile a set holds and a refusal's text."""

from __future__ import annotations

from controller.game import apply, due_timer_events, new_game
from controller.game.context import Ctx, Refused, copies_in_set
from controller.game.state import GameState
from tests.game.logbuilder import Log
from tests.game.scenarios import JUNK

#: South (seat 3 here) waits on the 9d for a pair: 1b pung, 2-4b, 5-7c, 2-4d
WAITING = "9d 1b1b1b 2b3b4b 5c6c7c 2d3d4d"


def _dealt() -> GameState:
    log = Log(table={"timers": True})
    log.deal({**JUNK, 3: WAITING})
    state = new_game()
    for event in log.events:
        state = apply(state, event, at=1.0).state
    return state


def test_a_late_mahjong_claim_is_due_once_while_the_hand_is_in_play_and_not_after() -> None:
    state = apply(_dealt(), {"move": {"tile": "9d", "from": "rack:1", "to": "discard"}},
                  at=10.0).state
    claimed = apply(state, {"declare": {"seat": 3, "call": "mahjong"}}, at=14.25).state
    late = {"timer": {"seat": 3, "kind": "claim", "overrun": 1.25, "deadline": 13.0}}
    assert due_timer_events(claimed, 14.5) == [late]
    noted = apply(claimed, late, at=14.5).state
    assert due_timer_events(noted, 15.0) == []  # each overrun once
    won = apply(claimed, {"move": {"tile": "9d", "from": "discard", "to": "rack:3"}},
                at=14.75).state
    assert won.hand is not None and won.hand.phase == "over"
    assert due_timer_events(won, 20.0) == []  # not reported once the hand is over


def test_a_turn_overrun_counts_from_past_the_deadline_to_the_millisecond() -> None:
    state = apply(_dealt(), {"move": {"tile": "rd", "from": "rack:1", "to": "discard"}},
                  at=200.0).state
    assert state.hand is not None and state.hand.turn_deadline == 210.0
    assert due_timer_events(state, 210.0) == []  # at the deadline: not over it yet
    assert due_timer_events(state, 211.23456) == [
        {"timer": {"seat": 2, "kind": "turn", "overrun": 1.235, "deadline": 210.0}}]


def test_no_timer_is_due_before_the_first_hand() -> None:
    state = apply(new_game(), {"session": {"ruleset": "hua-bao", "options": {},
                                           "table": {"timers": True}}}, at=1.0).state
    assert state.hand is None and due_timer_events(state, 1000.0) == []


def test_a_set_holds_four_of_a_kind_and_one_of_each_bonus_tile_when_they_are_played() -> None:
    assert copies_in_set("5b", bonus_tiles=False) == 4
    assert copies_in_set("wd", bonus_tiles=True) == 4
    assert copies_in_set("1f", bonus_tiles=True) == 1
    assert copies_in_set("1f", bonus_tiles=False) == 0  # no bonus tiles in the set


def test_a_refusal_reads_as_its_message() -> None:
    refused = Refused("name_taken", 2, "Ann already plays at seat 1")
    assert str(refused) == "Ann already plays at seat 1"
    assert (refused.rule, refused.seat, refused.message) == (
        "name_taken", 2, "Ann already plays at seat 1")


def test_an_option_is_the_sessions_and_the_default_only_where_it_names_none() -> None:
    state = apply(new_game(), {"session": {"ruleset": "hua-bao",
                                           "options": {"wrong_count": "dead_hand"}}}).state
    ctx = Ctx(state)
    assert ctx.option("wrong_count", "repair") == "dead_hand"  # given in the session line
    assert ctx.option("mahjong_tie", None) == "turn_order"  # the rule set's default (RULES.md)
    assert ctx.option("multiple_ron", "all") == "all"  # riichi's option: not hua bao's
