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
        if len(game.apply(state, event).state.hands) > before:
            state = people(before + 1)
        state = game.apply(state, event).state
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
