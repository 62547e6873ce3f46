"""Claims and Mahjong in their less common orders: robbing with the move first, putting a
robbed tile back, a call outranking a claim already forming, a claim withdrawn."""

from __future__ import annotations

from typing import Any

from controller.game import GameState, apply, public_view, replay
from tests.game.logbuilder import Log
from tests.game.scenarios import JUNK, SCENARIOS


def fold(events: list[dict[str, Any]]) -> GameState:
    return replay(events)[0]


def until_added_kong() -> list[dict[str, Any]]:
    """The kongs scenario up to north adding the fourth 6c to its exposed pung."""
    events = SCENARIOS["kongs_and_robbing"]().log.events
    return events[:-2]


def test_robbing_with_the_move_first() -> None:
    events = until_added_kong()
    events.append({"move": {"tile": "6c", "from": "melds:4", "to": "rack:1"}})
    state = fold(events)
    assert state.hand is not None and state.hand.rob_taken == 1
    assert [m.kind for m in state.hand.seat(4).melds] == ["pung"]
    out = apply(state, {"declare": {"seat": 1, "call": "mahjong"}})
    assert out.accepted and out.state.hands[0].winner == 1
    items = out.state.hand.result.details["1"]["score"]["items"]  # type: ignore[union-attr]
    assert any("robbing" in item["name"] for item in items)


def test_a_robbed_tile_put_back_restores_the_kong() -> None:
    events = until_added_kong()
    before = fold(events)
    events.append({"move": {"tile": "6c", "from": "melds:4", "to": "rack:1"}})
    events.append({"move": {"tile": "6c", "from": "rack:1", "to": "melds:4"}})
    state = fold(events)
    assert state == before
    assert state.hand is not None and state.hand.robbable == ("6c", 4)


def test_the_kong_owner_may_not_draw_while_robbed() -> None:
    events = until_added_kong()
    events.append({"declare": {"seat": 1, "call": "mahjong"}})
    state = fold(events)
    out = apply(state, {"move": {"tile": "9b", "from": "wall", "to": "rack:4"}})
    assert out.violation is not None and out.violation.rule == "claim_pending"


def test_after_the_replacement_the_kong_cannot_be_robbed() -> None:
    events = until_added_kong()
    events.append({"move": {"tile": "9b", "from": "wall", "to": "rack:4"}})
    state = fold(events)
    out = apply(state, {"declare": {"seat": 1, "call": "mahjong"}})
    assert not out.accepted and out.violation is not None
    assert out.violation.rule == "mahjong_incomplete_hand"


def test_mahjong_outranks_a_claim_already_forming() -> None:
    log = Log()
    log.deal({**JUNK, 3: "9d 9d 8b 8c 8d ew sw ww nw rd gd wd wd"})
    log.discard(1, "9d")
    log.move("9d", "discard", "melds:3").move("9d", "rack:3", "melds:3")
    forming = fold(log.events)
    assert forming.hand is not None and forming.hand.claim is not None
    out = apply(forming, {"declare": {"seat": 2, "call": "mahjong"}})
    assert out.accepted and out.state.hand is not None
    assert out.state.hand.awarded == 2 and out.state.hand.claim is None
    assert out.state.hand.seat(3).rack.count("9d") == 2
    assert ("9d", "melds:3", "discard") in out.state.misplaced
    view = public_view(out.state)
    assert {"tile": "9d", "zone": "melds:3", "back_to": "discard"} in view["hand"]["out_of_place"]
    # the discard comes off west's strip into south's rack: Mahjong
    won = apply(out.state, {"move": {"tile": "9d", "from": "melds:3", "to": "rack:2"}})
    assert won.accepted and won.state.hands[0].winner == 2


def test_a_claim_may_be_withdrawn_before_it_completes() -> None:
    log = Log()
    log.deal({**JUNK, 3: "9d 9d 8b 8c 8d ew sw ww nw rd gd wd wd"})
    before = fold(log.events + [{"move": {"tile": "9d", "from": "rack:1", "to": "discard"}}])
    log.discard(1, "9d")
    log.move("9d", "rack:3", "melds:3").move("9d", "melds:3", "rack:3")
    state = fold(log.events)
    assert state.hand is not None and state.hand.claim is None
    assert sorted(state.hand.seat(3).rack) == sorted(before.hand.seat(3).rack)  # type: ignore[union-attr]
    out = apply(state, {"move": {"tile": "1b", "from": "wall", "to": "rack:2"}})
    assert out.accepted


def test_bonus_tile_straight_from_the_wall_in_play() -> None:
    log = Log("dmjl")
    log.deal(JUNK)
    log.discard(1, "rd")
    log.move("1f", "wall", "melds:2")
    state = fold(log.events)
    assert state.hand is not None
    assert state.hand.step == "replacement" and state.hand.seat(2).bonus == ("1f",)
    log.draw(2, "1b")
    log.discard(2, "1b")
    state, outs = replay(log.events)
    assert all(o.accepted for o in outs)
    assert state.hand is not None and state.hand.turn == 3


def test_chow_is_refused_for_the_seat_after_next_at_the_first_tile() -> None:
    log = Log()
    log.deal({**JUNK, 4: "8d 7d 3b 5b 6b 8b 9b 1c 4c 9c 1d wd wd"})
    log.discard(1, "9d")
    log.move("8d", "rack:4", "melds:4")
    _, outs = replay(log.events)
    v = outs[-1].violation
    assert v is not None and v.rule == "chow_not_from_previous" and v.seat == 4
    assert v.message == "North may not chow 9d: only South, who plays after East, may"
