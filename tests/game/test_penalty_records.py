"""Each penalty as the public view records it, field by field, and each refusal of a penalty or
a name with its rule, seat and what to do next (docs/service.md's penalty endpoints; RULES.md
section 10 for mcr's false-Mahjong penalty of 10 to each other player, section 11 for riichi's
chombo of 20 thousand points). Expected records are written out here, not read from the code."""

from __future__ import annotations

from functools import cache
from typing import Any

from controller import game
from controller.game.state import GameState
from tests.game.logbuilder import Log
from tests.game.randomgame import random_session

NAMES = {"1": "Ann", "2": "Bo", "3": "Cai", "4": "Dee"}


def _fold(events: list[dict[str, Any]]) -> GameState:
    state = game.new_game()
    for event in events:
        state = game.apply(state, event).state
    return state


@cache
def _played() -> GameState:
    """One finished hand of hua bao with the four NAMES seated before it."""
    events = random_session(seed=4, hands=1)
    seated = [{"player": {"seat": int(s), "name": n}} for s, n in NAMES.items()]
    state = _fold(events[:1] + seated + events[1:])
    assert len(state.hands) == 1 and state.names == tuple(NAMES.values())
    return state


def _give(state: GameState, body: dict[str, Any]) -> game.Outcome:
    return game.apply(state, {"penalty": body})


def _refusal(out: game.Outcome) -> tuple[str, int | None, str]:
    assert not out.accepted and out.violation is not None
    return out.violation.rule, out.violation.seat, out.violation.message


def test_each_kind_of_penalty_is_recorded_with_its_hand_seat_amount_reason_and_names() -> None:
    base = _played()
    steps = [
        ({"kind": "transfer", "from": 1, "to": 3, "amount": 30, "reason": "slow play"},
         "Seat 1 pays a penalty of 30"),
        ({"kind": "deduction", "seat": 4, "amount": 7, "reason": "late"},
         "Seat 4 loses 7 (deduction)"),
        ({"kind": "false_mahjong", "seat": 2, "amount": 5, "reason": "wrong call"},
         "Seat 2 pays 5 to each other player (false Mahjong)"),
    ]
    state = base
    for body, note in steps:
        out = _give(state, body)
        assert out.accepted, out.violation
        assert note in out.announcements
        state = out.state
    common = {"hand": 1, "names": NAMES, "cancelled": False, "line": None}
    assert game.public_view(state)["penalties"] == [
        {"kind": "transfer", "seat": 1, "amount": 30, "reason": "slow play",
         "payments": [{"from": 1, "to": 3, "amount": 30}], **common},
        {"kind": "deduction", "seat": 4, "amount": 7, "reason": "late", "payments": [],
         **common},
        {"kind": "false_mahjong", "seat": 2, "amount": 15, "reason": "wrong call",
         "payments": [{"from": 2, "to": 1, "amount": 5}, {"from": 2, "to": 3, "amount": 5},
                      {"from": 2, "to": 4, "amount": 5}], **common},
    ]
    moved = [a - b for a, b in zip(state.totals, base.totals, strict=True)]
    assert moved == [-30 + 5, -15, 30 + 5, 5]
    assert state.deductions == (0, 0, 0, 7)


#: a deal in which nobody has won yet (hand 1 in play)
DEAL = {1: "1c2c3c 4c5c6c 2b3b4b 2d3d 5b5b nw", 2: "1d 9d9d 1b1b 7b8b ewew swsw wwww",
        3: "6d6d 7d7d 8d8d 3c3c gdgd rdrd wd", 4: "5d5d 6b6b 7c7c 8c8c 9b9b nwnw 3d"}


def _dealt(ruleset: str, *events: dict[str, Any]) -> tuple[GameState, game.Outcome]:
    log = Log(ruleset, {"bonus_tiles": False}).deal(DEAL)
    if ruleset == "riichi":
        log.move("9b", "wall", "dora")
    for event in events:
        log.raw(event)
    state, outcomes = game.replay(log.events)
    return state, outcomes[-1]


def test_mcr_gives_its_false_mahjong_penalty_of_ten_to_each_other_player_by_itself() -> None:
    base, _ = _dealt("mcr")
    out = _give(base, {"kind": "false_mahjong", "seat": 3})
    assert out.accepted, out.violation
    assert "Seat 3 pays 10 to each other player (false Mahjong)" in out.announcements
    record = game.public_view(out.state)["penalties"][0]
    assert record["amount"] == 30 and record["reason"] is None and record["seat"] == 3
    assert record["payments"] == [{"from": 3, "to": p, "amount": 10} for p in (1, 2, 4)]
    moved = [a - b for a, b in zip(out.state.totals, base.totals, strict=True)]
    assert moved == [10, 10, -30, 10]


def test_a_rule_set_without_a_false_mahjong_penalty_asks_for_the_amount() -> None:
    rule, seat, message = _refusal(_give(_played(), {"kind": "false_mahjong", "seat": 2}))
    assert (rule, seat) == ("no_false_mahjong_penalty", 2)
    assert "hua-bao" in message and message.endswith(
        "give the amount each other player receives")


def test_a_penalty_is_taken_back_once_and_only_one_that_was_given() -> None:
    state = _played()
    for amount in (10, 20):
        state = _give(state, {"kind": "transfer", "from": 2, "to": 4, "amount": amount}).state
    first = _give(state, {"cancel": 1})
    assert first.accepted and "Penalty 1 is taken back" in first.announcements
    # the second is still live although the first was taken back
    second = _give(first.state, {"cancel": 2})
    assert second.accepted, second.violation
    assert [p["cancelled"] for p in game.public_view(second.state)["penalties"]] == [True, True]
    assert second.state.totals == _played().totals
    for n in (2, 3):
        assert _refusal(_give(second.state, {"cancel": n})) == (
            "no_such_penalty", None, f"there is no penalty {n} to take back")
    live = _give(first.state, {"cancel": 1})
    assert _refusal(live)[0] == "no_such_penalty"


def test_chombo_is_riichi_only_recorded_at_twenty_thousand_and_taken_back_by_an_undo() -> None:
    rule, seat, message = _refusal(_give(_played(), {"kind": "chombo", "seat": 3}))
    assert (rule, seat) == ("bad_penalty", 3)
    assert message == "chombo is a riichi penalty: give a deduction"
    state, last = _dealt("riichi", {"player": {"seat": 3, "name": "Cai"}},
                         {"penalty": {"kind": "chombo", "seat": 3, "reason": "wrong tiles shown"}})
    assert last.accepted, last.violation
    assert game.public_view(state)["penalties"] == [
        {"kind": "chombo", "hand": 1, "seat": 3, "amount": 20_000,
         "reason": "wrong tiles shown", "payments": [], "cancelled": False, "line": None,
         "names": {"1": None, "2": None, "3": "Cai", "4": None}}]
    rule, seat, message = _refusal(_give(state, {"cancel": 1}))
    assert (rule, seat) == ("bad_penalty", 3)
    assert message == ("penalty 1 is a chombo, which voided its hand: take it back with an "
                       "undo")


def test_a_name_is_tidied_cleared_and_kept_at_one_seat() -> None:
    state = _played()
    out = game.apply(state, {"player": {"seat": 1, "name": "  ann  "}})  # her own seat again
    assert out.accepted and out.state.names[0] == "ann"
    assert "Seat 1: ann" in out.announcements
    spaced = game.apply(state, {"player": {"seat": 2, "name": " Bo   Lee "}})
    assert spaced.state.names[1] == "Bo Lee" and "Seat 2: Bo Lee" in spaced.announcements
    cleared = game.apply(state, {"player": {"seat": 4, "name": None}})
    assert cleared.accepted and cleared.state.names[3] is None
    assert "Seat 4 is free" in cleared.announcements
    rule, seat, message = _refusal(game.apply(state, {"player": {"seat": 4, "name": "CAI"}}))
    assert (rule, seat) == ("name_taken", 4)
    assert message == "CAI already plays at seat 3: swap or clear that seat first"


def test_an_mcr_false_mahjong_declared_at_the_table_is_recorded_with_its_line() -> None:
    # East holds 14 tiles that are no complete hand; the declaration is line 55 of the log
    # (FORMATS.md: 1-based; the session line, then the 53 tiles of the deal)
    state, out = _dealt("mcr", {"declare": {"seat": 1, "call": "mahjong"}})
    assert not out.accepted and out.violation is not None
    assert out.violation.rule == "mahjong_incomplete_hand"
    assert game.public_view(state)["penalties"] == [
        {"kind": "false_mahjong", "hand": 1, "seat": 1, "amount": 30,
         "reason": "false Mahjong", "line": 55, "cancelled": False,
         "names": {"1": None, "2": None, "3": None, "4": None},
         "payments": [{"from": 1, "to": p, "amount": 10} for p in (2, 3, 4)]}]
