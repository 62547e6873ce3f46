"""The fold's contract: purity, undo, put-backs, views, timers, repair, kongs, session rules."""

from __future__ import annotations

import json
from typing import Any

from controller.game import (
    GameState,
    apply,
    due_timer_events,
    new_game,
    public_view,
    replay,
    seat_view,
)
from controller.game.state import evolve
from tests.game.logbuilder import Log
from tests.game.scenarios import JUNK, SCENARIOS, dmjl_win_on_a_kong_replacement


def fold(events: list[dict[str, Any]]) -> GameState:
    return replay(events)[0]


def dealt(ruleset: str = "hua-bao", **options: Any) -> Log:
    log = Log(ruleset, options)
    log.deal(JUNK)
    return log


def test_apply_does_not_change_its_input_and_is_deterministic() -> None:
    log = dealt()
    state = fold(log.events)
    before = public_view(state)
    event = {"move": {"tile": "rd", "from": "rack:1", "to": "discard"}}
    a, b = apply(state, event), apply(state, event)
    assert public_view(state) == before
    assert a.state == b.state and a.accepted and b.accepted


def test_undo_returns_to_the_state_before() -> None:
    log = dealt()
    log.discard(1, "rd")
    before = fold(log.events)
    log.draw(2)
    log.discard(2, "9d")
    log.move("9d", "discard", "river")
    after = fold(log.events)
    undone = apply(after, {"correct": {"undo": 3}})
    assert undone.accepted and undone.state == before
    assert undone.state != after


def test_undo_counts_only_accepted_events() -> None:
    log = dealt()
    before = fold(log.events)
    log.discard(1, "rd")
    log.discard(3, "8c")  # refused: out of turn
    log.move("8c", "discard", "rack:3")  # the put-back: accepted but changes nothing
    log.undo(1)  # takes back east's discard
    state = fold(log.events)
    assert state == before
    assert state.hand is not None and state.hand.phase == "deal"


def test_undo_beyond_the_start_is_refused() -> None:
    out = apply(fold(dealt().events[:3]), {"correct": {"undo": 99}})
    assert not out.accepted and out.violation is not None
    assert out.violation.rule == "undo_too_far"


def test_refused_move_then_put_back_changes_nothing_else() -> None:
    log = dealt()
    log.discard(1, "rd")
    good = fold(log.events)
    out = apply(good, {"move": {"tile": "8c", "from": "rack:3", "to": "discard"}})
    assert not out.accepted and out.state == good
    assert out.state.misplaced == (("8c", "discard", "rack:3"),)
    back = apply(out.state, {"move": {"tile": "8c", "from": "discard", "to": "rack:3"}})
    assert back.accepted and back.violation is None
    assert back.state == good and back.state.misplaced == ()


def test_public_view_never_shows_a_concealed_tile() -> None:
    log = dealt()
    log.discard(1, "rd")
    state = fold(log.events)
    view = public_view(state)
    assert state.hand is not None
    # swap every rack for other tiles of the same count: the public view must not change
    seats = tuple(evolve(s, rack=("1b",) * len(s.rack)) for s in state.hand.seats)
    masked = evolve(state, hand=evolve(state.hand, seats=seats))
    assert public_view(masked) == view
    assert view["hand"]["seats"]["2"]["concealed_count"] == 13
    assert view["hand"]["discard"] == {"tile": "rd", "seat": 1}


def test_results_show_every_hand_after_the_hand() -> None:
    state = fold(SCENARIOS["example_a"]().log.events)
    details = public_view(state)["hand"]["result"]["details"]
    assert details["2"]["score"]["score"] == 44
    assert details["4"]["hand"] and details["4"]["score"]["score"] == 20


def test_seat_view_shows_own_hand_and_waits() -> None:
    log = dealt()
    log.discard(1, "rd")
    view = seat_view(fold(log.events), 2)
    assert view["wind"] == "south" and len(view["hand"]) == 13
    assert view["waits"] == ["9d"]
    assert "hand" not in json.dumps(view["table"]["hand"]["seats"]).replace("\"hand\"", "")


def test_timers_report_a_turn_overrun_once() -> None:
    log = Log(table={"timers": True})
    log.deal(JUNK)
    state = new_game()
    for i, event in enumerate(log.events):
        state = apply(state, event, at=100.0 + i * 0.01).state
    discard = {"move": {"tile": "rd", "from": "rack:1", "to": "discard"}}
    state = apply(state, discard, at=200.0).state
    assert state.hand is not None and state.hand.turn_deadline == 210.0
    assert due_timer_events(state, 205.0) == []
    due = due_timer_events(state, 211.5)
    assert due == [{"timer": {"seat": 2, "kind": "turn", "overrun": 1.5, "deadline": 210.0}}]
    state = apply(state, due[0], at=211.5).state
    assert due_timer_events(state, 212.0) == []
    assert public_view(state, now=205.0)["hand"]["timers"]["turn_deadline"] == 210.0


def test_a_claim_after_three_seconds_is_a_timer_event() -> None:
    log = Log(table={"timers": True})
    log.deal({**JUNK, 3: "9d 9d 8b 8c 8d ew sw ww nw rd gd wd wd"})
    state = fold(log.events)
    state = apply(state, {"move": {"tile": "9d", "from": "rack:1", "to": "discard"}}, at=10).state
    state = apply(state, {"declare": {"seat": 3, "call": "claim"}}, at=14.0).state
    due = due_timer_events(state, 14.0)
    assert {"seat": 3, "kind": "claim", "overrun": 1.0} == {
        k: v for k, v in due[-1]["timer"].items() if k != "deadline"
    }


def test_timers_are_off_by_default() -> None:
    log = dealt()
    state = new_game()
    for event in log.events:
        state = apply(state, event, at=1.0).state
    assert due_timer_events(state, 1000.0) == []


def test_repair_refuses_the_discard_until_the_hand_is_repaired() -> None:
    log = Log("hua-bao", {"wrong_count": "repair"})
    log.deal({**JUNK, 4: JUNK[4][:-3]})
    log.discard(1, "rd")
    state, outs = replay(log.events)
    assert not outs[-1].accepted and outs[-1].violation.rule == "wrong_tile_count"  # type: ignore[union-attr]
    log.draw(4)
    log.discard(1, "rd")
    state, outs = replay(log.events)
    assert outs[-1].accepted and state.hand is not None and state.hand.phase == "play"


def test_concealed_kong_waits_for_the_fourth_tile() -> None:
    log = Log()
    log.deal({**JUNK, 1: "1b1b1b1b 1c2c3c 4d5d6d ew ew 5c 5b"})
    for _ in range(3):
        log.move("1b", "rack:1", "melds:1")
    log.discard(1, "5b")
    state, outs = replay(log.events)
    assert outs[-1].violation is not None and outs[-1].violation.rule == "set_incomplete"
    assert state.hand is not None and state.hand.seat(1).forming == ("1b",) * 3
    log.events.pop()
    log.move("1b", "rack:1", "melds:1")
    state = fold(log.events)
    assert state.hand is not None
    assert [m.kind for m in state.hand.seat(1).melds] == ["kong"]
    assert state.hand.seat(1).replacements_due == 1


def test_mahjong_on_a_discard_may_be_declared_after_the_move() -> None:
    log = dealt()
    log.discard(1, "9d")
    log.move("9d", "discard", "rack:2")
    state = fold(log.events)
    assert state.hand is not None and state.hand.taken == 2
    out = apply(state, {"move": {"tile": "1b", "from": "wall", "to": "rack:3"}})
    assert not out.accepted and out.violation is not None
    assert out.violation.rule == "mahjong_not_declared"
    out = apply(state, {"declare": {"seat": 2, "call": "mahjong"}})
    assert out.accepted and out.state.hands[0].winner == 2


def test_a_called_claim_holds_up_the_next_draw() -> None:
    log = dealt()
    log.deal  # noqa: B018 - the deal is done
    log.discard(1, "9d").declare(2, "claim")
    log.draw(2)
    _, outs = replay(log.events)
    assert outs[-2].accepted and outs[-2].announcements == ()
    assert outs[-1].violation is not None and outs[-1].violation.rule == "claim_pending"


def test_the_last_wall_tile_cannot_be_followed_by_a_draw() -> None:
    events = SCENARIOS["washout"]().log.events[:-2]  # the last tile is drawn, not discarded
    state = fold(events)
    assert state.hand is not None and state.hand.live_wall == 0
    other = state.hand.turn % 4 + 1
    out = apply(state, {"move": {"tile": "9d", "from": "wall", "to": f"rack:{other}"}})
    assert out.violation is not None and out.violation.rule == "wall_empty"


def test_a_second_session_is_refused_once_play_began() -> None:
    out = apply(fold(dealt().events), {"session": {"ruleset": "swedish", "options": {}}})
    assert not out.accepted and out.violation is not None
    assert out.violation.rule == "session_in_progress"


def test_moves_before_the_session_are_refused() -> None:
    """A move or a declaration before any session is refused in the words every event before
    the session gets (a player's, a penalty's, a correction's: tests/game/test_engine_words.py),
    which say what to do; a move to a rack names its seat (a refusal with no seat of its own
    names the seat whose rack or meld strip the move left or reached)."""
    for event, seat in (({"move": {"tile": "5b", "from": "wall", "to": "rack:1"}}, 1),
                        ({"declare": {"seat": 2, "call": "mahjong"}}, None)):
        out = apply(new_game(), event)
        v = out.violation
        assert not out.accepted and v is not None
        assert (v.rule, v.seat, v.message) == (
            "no_session", seat, "no session yet: start one with a session event")


def test_dmjl_east_winning_nine_in_a_row_scores_a_limit_and_rotates() -> None:
    log = Log("dmjl")
    for _ in range(9):
        log.new_hand()
        log.reserve("9d")
        log.deal({1: "1b2b3b 4b5b6b 7b8b9b 1c2c3c 9d rd", 2: JUNK[2][:-2] + "ew",
                  3: JUNK[3], 4: JUNK[4]})
        log.discard(1, "rd")
        for seat in (2, 3, 4):
            log.draw_discard(seat, log.spare(avoid=["9d"]))
        log.draw(1, "9d")
        log.declare(1, "mahjong")
    state = fold(log.events)
    assert [h.winner for h in state.hands] == [1] * 9
    assert [h.dealer for h in state.hands] == [1] * 9
    assert state.hands[-1].scores[0] == 500 and state.hands[-2].scores[0] < 500
    assert state.dealer == 2


def test_clearing_the_table_after_the_last_discard_is_a_washout() -> None:
    events = SCENARIOS["washout"]().log.events[:-1]  # the last discard is never pushed away
    state = fold(events)
    assert state.hand is not None and state.hand.phase == "play"
    out = apply(state, {"move": {"tile": "1c", "from": "rack:1", "to": "wall"}})
    assert out.accepted and out.state.hands[0].result == "washout"
    out = apply(state, {"move": {"tile": "5b", "from": "wall", "to": "rack:1"}})
    assert out.accepted and out.state.hands[0].result == "washout"
    assert out.state.hand is not None and out.state.hand.number == 2


def test_public_and_seat_views_are_json() -> None:
    state = fold(SCENARIOS["kongs_and_robbing"]().log.events)
    json.dumps(public_view(state))
    json.dumps(seat_view(state, 3))
    assert public_view(state)["hand"]["result"]["details"]["1"]["score"]["score"] > 0


def test_a_replacement_drawn_before_its_bonus_tile_is_laid_is_fine_in_the_deal() -> None:
    log = Log("dmjl")
    log.deal({**JUNK, 2: "2c3c4c 5c6c7c 2d3d4d 5d6d7d 1f"})
    log.draw(2, "9d")
    log.move("1f", "rack:2", "melds:2")
    log.discard(1, "rd")
    state, outs = replay(log.events)
    assert all(o.violation is None for o in outs)
    assert state.hand is not None and state.hand.seat(2).replacements_due == 0


def test_violations_name_the_seat_of_the_zone() -> None:
    log = dealt()
    log.discard(1, "rd")
    log.discard(2, "rd")
    _, outs = replay(log.events)
    v = outs[-1].violation
    assert v is not None and v.rule == "tile_not_there" and v.seat == 2
    assert v.message.startswith("South's rack holds no rd")


def _dmjl_items(ready_after_first_discard: bool) -> list[str]:
    log = Log("dmjl")
    log.reserve("9d")
    log.deal({1: "1b2b3b 4b5b6b 7b8b9b 1c2c3c 9d rd", 2: JUNK[2][:-2] + "ew",
              3: JUNK[3], 4: JUNK[4]})
    log.discard(1, "rd")
    if ready_after_first_discard:
        log.declare(1, "ready")
    for seat in (2, 3, 4):
        log.draw_discard(seat, log.spare(avoid=["9d"]))
    log.draw(1, "9d")
    log.declare(1, "mahjong")
    state = fold(log.events)
    assert state.hands and state.hands[0].winner == 1
    details = public_view(state)["hand"]["result"]["details"]
    return [item["name"] for item in details["1"]["score"]["items"]]


def test_a_ready_call_with_the_first_discard_is_an_original_call() -> None:
    assert "Mahjong with original call" in _dmjl_items(True)
    assert "Mahjong with original call" not in _dmjl_items(False)


def test_kong_on_a_kong_replacement_then_winning_is_twofold_fortune() -> None:
    log = dmjl_win_on_a_kong_replacement(second_kong=True)
    state, outs = replay(log.events)
    assert all(o.violation is None for o in outs)
    score = public_view(state)["hand"]["result"]["details"]["1"]["score"]
    assert score["limit_hand"] == "twofold_fortune" and score["score"] == 500
