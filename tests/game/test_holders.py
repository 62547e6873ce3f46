"""The operator's seat-holder correction (docs/club.md, "Names, places and provisional
sessions"): ``{"correct": {"holder": {"seat", "name", "from", "to"}}}`` on real random games."""

from __future__ import annotations

from functools import cache
from typing import Any

from controller import game
from controller.game.state import GameState
from controller.sessions import SessionFold
from tests.game.randomgame import random_session


@cache
def _events() -> tuple[dict[str, Any], ...]:
    return tuple(random_session(seed=1, hands=4))


def play(names_at: dict[int, list[tuple[int, str | None]]], penalty_at: int | None = None
         ) -> GameState:
    """Four hands; ``names_at[k]``: (seat, name) events given while hand k is in play (0: at
    the session's start), just before the event that ends it; a deduction from seat 1 at the
    same moment of hand ``penalty_at``."""
    state = game.new_game()

    def people(k: int) -> GameState:
        out = state
        for seat, name in names_at.get(k, []):
            out = game.apply(out, {"player": {"seat": seat, "name": name}}).state
        if penalty_at == k:
            out = game.apply(out, {"penalty": {"kind": "deduction", "seat": 1,
                                               "amount": 5}}).state
        return out

    for i, event in enumerate(_events()):
        if i == 1:
            state = people(0)
        before = len(state.hands)
        after = game.apply(state, event).state
        if len(after.hands) > before:  # the event ends hand k: its names go in first
            after = game.apply(people(before + 1), event).state
        state = after
    assert len(state.hands) == 4
    return state


def column(state: GameState, seat: int) -> list[str | None]:
    return [r.names[seat - 1] for r in state.hands]


def correct(state: GameState, **holder: Any) -> game.Outcome:
    return game.apply(state, {"correct": {"holder": holder}})


ANN = "Ann Lee"


def test_ann_sat_down_for_hand_3_though_named_during_hand_2() -> None:
    state = play({0: [(2, "Bo")], 2: [(1, ANN)]}, penalty_at=2)
    assert column(state, 1) == [None, ANN, ANN, ANN]
    assert state.penalties[0].names[0] == ANN  # given in hand 2, after her name
    out = correct(state, seat=1, name=ANN, **{"from": 3})
    assert out.accepted
    assert column(out.state, 1) == [None, None, ANN, ANN]
    assert column(out.state, 2) == ["Bo"] * 4
    assert out.state.penalties[0].names[0] is None  # the penalty follows hand 2
    assert out.state.names[0] == ANN  # she holds the seat now
    assert out.state.totals == state.totals  # nets never move: only whose they are
    back = game.apply(out.state, {"correct": {"undo": 1}})
    assert back.accepted and column(back.state, 1) == [None, ANN, ANN, ANN]


def test_a_name_given_late_reaches_back_to_the_hand_she_sat_down() -> None:
    state = play({3: [(1, ANN)]})
    assert column(state, 1) == [None, None, ANN, ANN]
    out = correct(state, seat=1, name=ANN, **{"from": 2})
    assert out.accepted and column(out.state, 1) == [None, ANN, ANN, ANN]


def test_a_seat_never_named_and_a_bounded_stint() -> None:
    state = play({})
    out = correct(state, seat=3, name="Cai", **{"from": 1})
    assert column(out.state, 3) == ["Cai"] * 4 and out.state.names[2] == "Cai"
    bounded = correct(state, seat=3, name="Cai", **{"from": 2, "to": 3})
    assert column(bounded.state, 3) == [None, "Cai", "Cai", None]
    assert bounded.state.names[2] is None  # "to" says nothing about who sits now


def test_the_run_stops_at_the_next_holder() -> None:
    state = play({2: [(4, "Dee")], 4: [(4, "Eve")]})
    assert column(state, 4) == [None, "Dee", "Dee", "Eve"]
    out = correct(state, seat=4, name="Fay", **{"from": 2})
    assert column(out.state, 4) == [None, "Fay", "Fay", "Eve"] and out.state.names[3] == "Eve"


def test_refusals_name_the_rule() -> None:
    state = play({0: [(2, "Bo")]})
    twice = correct(state, seat=1, name="bo", **{"from": 1})
    assert not twice.accepted and twice.violation is not None
    assert twice.violation.rule == "name_taken" and "seats 1 and 2" in twice.violation.message
    late = correct(state, seat=1, name=ANN, **{"from": 5})
    assert late.violation is not None and late.violation.rule == "no_such_hand"
    for bad in ({"seat": 5, "name": ANN, "from": 1}, {"seat": 1, "name": ANN, "from": 0},
                {"seat": 1, "name": ANN, "from": 3, "to": 2}, {"seat": 1, "name": ANN}):
        out = game.apply(state, {"correct": {"holder": bad}})
        assert out.violation is not None and out.violation.rule == "malformed_event", bad


def test_the_fold_publishes_the_changed_names_as_one_holders_fact() -> None:
    fold = SessionFold(1, "hua-bao", 0.0)
    events = list(_events())
    for seq, event in enumerate(events, start=1):
        fold.feed(seq, event, None)
    hands = [f for f in fold.feed(len(events) + 1, {"player": {"seat": 1, "name": ANN}}, None)]
    assert [f.kind for f in hands] == ["players"]
    facts = fold.feed(len(events) + 2, {"correct": {"holder": {"seat": 1, "name": ANN,
                                                               "from": 3}}}, None)
    assert [f.kind for f in facts] == ["holders"]
    assert {n: v["1"] for n, v in facts[0].body["hands"].items()} == {"3": ANN, "4": ANN}


def test_her_stint_before_from_goes_back_to_the_holder_before_her() -> None:
    # RULES of the correction (module docstring): hands just before "from" recorded as hers go
    # back to whoever held the seat before her, nobody when she held it from the first hand
    state = play({1: [(4, "Cy")], 2: [(4, "Dee")], 3: [(4, ANN)]})
    assert column(state, 4) == ["Cy", "Dee", ANN, ANN]
    assert column(correct(state, seat=4, name=ANN, **{"from": 4}).state, 4) == [
        "Cy", "Dee", "Dee", ANN]
    bo = play({1: [(4, "Bo")], 2: [(4, ANN)]})
    assert column(bo, 4) == ["Bo", ANN, ANN, ANN]
    assert column(correct(bo, seat=4, name=ANN, **{"from": 3}).state, 4) == [
        "Bo", "Bo", ANN, ANN]
    first = play({0: [(4, ANN)]})
    assert column(first, 4) == [ANN] * 4
    assert column(correct(first, seat=4, name=ANN, **{"from": 3}).state, 4) == [
        None, None, ANN, ANN]


def test_a_correction_of_the_newest_hand_seats_the_new_holder_now_and_notes_it() -> None:
    state = play({2: [(4, "Dee")], 4: [(4, "Eve")]})
    out = correct(state, seat=4, name="Gus", **{"from": 4})
    assert out.accepted and column(out.state, 4) == [None, "Dee", "Dee", "Gus"]
    assert out.state.names[3] == "Gus"  # Eve held hand 4 and holds the seat: Gus now too
    assert out.announcements == ("Seat 4 was held by Gus from hand 4",)
    cleared = correct(state, seat=4, name=None, **{"from": 2, "to": 3})
    assert column(cleared.state, 4) == [None, None, None, "Eve"]
    assert cleared.announcements == (
        "Seat 4 was held by nobody named (Seat 4) from hand 2 to hand 3",)


def test_a_penalty_follows_its_hand_to_the_new_holder_and_others_stay() -> None:
    state = play({0: [(2, "Bo")], 3: [(1, ANN)]}, penalty_at=2)
    assert column(state, 1) == [None, None, ANN, ANN] and state.penalties[0].names[0] is None
    out = correct(state, seat=1, name=ANN, **{"from": 2})
    assert out.accepted and out.state.penalties[0].names[0] == ANN
    early = play({0: [(2, "Bo")], 3: [(1, ANN)]}, penalty_at=1)
    kept = correct(early, seat=1, name=ANN, **{"from": 2})
    assert kept.accepted and kept.state.penalties[0].names[0] is None  # hand 1 not changed


def test_refusals_say_which_hand_which_seats_and_what_to_do() -> None:
    state = play({1: [(2, "Bo")], 2: [(2, "Cy")]})
    assert column(state, 2) == ["Bo", "Cy", "Cy", "Cy"]
    past = correct(state, seat=1, name="Bo", **{"from": 1, "to": 2})
    assert past.violation is not None
    assert (past.violation.rule, past.violation.seat, past.violation.message) == (
        "name_taken", 1, "Bo would sit at seats 1 and 2 in hand 1: correct the other seat first")
    now = game.apply(state, {"player": {"seat": 2, "name": "Bo"}}).state
    late = correct(now, seat=1, name="bo", **{"from": 4})
    assert late.violation is not None
    assert (late.violation.rule, late.violation.seat, late.violation.message) == (
        "name_taken", 1, "bo would sit at seats 1 and 2 now: correct the other seat first")
    start = correct(state, seat=3, name=ANN, **{"from": 5})
    assert start.violation is not None
    assert (start.violation.rule, start.violation.seat, start.violation.message) == (
        "no_such_hand", 3, "hand 5 has not finished in this session: the correction is for "
        "finished hands (seat a player for the hand in play)")
    end = correct(state, seat=3, name=ANN, **{"from": 2, "to": 7})
    assert end.violation is not None
    assert (end.violation.rule, end.violation.seat, end.violation.message) == (
        "no_such_hand", 3, "hand 7 has not finished in this session")
