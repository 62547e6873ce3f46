"""Names and penalties as events: who sat where in each hand (with that hand's winds), and
the operator's penalties (transfers sum to zero, deductions apart, each can be taken back)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from controller import game
from tests.game.randomgame import random_session

NAMES = ("Ann", "Bo", "Cai", "Dee")


def _seated(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The session line, four players sitting down, then the rest of the log."""
    players = [{"player": {"seat": p, "name": n}} for p, n in enumerate(NAMES, start=1)]
    return events[:1] + players + events[1:]


def _fold(events: list[dict[str, Any]]) -> Any:
    state = game.new_game()
    for event in events:
        outcome = game.apply(state, event)
        state = outcome.state
    return state


def _first_hand_end(events: list[dict[str, Any]]) -> int:
    state = game.new_game()
    for i, event in enumerate(events):
        state = game.apply(state, event).state
        if state.hands:
            return i
    raise AssertionError("no hand finished")


def test_each_finished_hand_keeps_its_own_winds_dealer_and_names() -> None:
    events = _seated(random_session(seed=5, hands=6))
    # a swap after the first hand: seats 1 and 2 change places
    cut = _first_hand_end(events)
    swap = [{"player": {"seat": 1, "name": None}}, {"player": {"seat": 2, "name": "Ann"}},
            {"player": {"seat": 1, "name": "Bo"}}]
    state = _fold(events[: cut + 1] + swap + events[cut + 1:])
    view = game.public_view(state)
    hands = view["hands"]
    assert len(hands) >= 2
    for hand in hands:
        assert hand["winds"][str(hand["dealer"])] == "east"
        assert sorted(hand["winds"].values()) == ["east", "north", "south", "west"]
    dealers = {h["dealer"] for h in hands}
    assert len(dealers) > 1, "the dealership never moved: the test proves nothing"
    assert hands[0]["names"] == {"1": "Ann", "2": "Bo", "3": "Cai", "4": "Dee"}
    assert hands[-1]["names"] == {"1": "Bo", "2": "Ann", "3": "Cai", "4": "Dee"}
    assert view["names"] == {"1": "Bo", "2": "Ann", "3": "Cai", "4": "Dee"}
    summary = game.replay_summary(state)
    assert summary["names"] == view["names"] and summary["hands"][0]["winds"]


def test_a_name_sits_at_one_seat_and_an_undo_keeps_the_names() -> None:
    state = _fold(_seated(random_session(seed=2, hands=1))[:30])
    taken = game.apply(state, {"player": {"seat": 2, "name": "ann"}})
    assert not taken.accepted and taken.violation is not None
    assert taken.violation.rule == "name_taken"
    undone = game.apply(state, {"correct": {"undo": 1}})
    assert undone.accepted and undone.state.names == NAMES
    bad = game.apply(state, {"player": {"seat": 5, "name": "Eve"}})
    assert not bad.accepted and bad.violation is not None
    assert bad.violation.rule == "malformed_event"


PENALTY = st.one_of(
    st.builds(lambda a, b, n: {"kind": "transfer", "from": a, "to": b, "amount": n},
              st.integers(1, 4), st.integers(1, 4), st.integers(1, 500)),
    st.builds(lambda a, n: {"kind": "deduction", "seat": a, "amount": n},
              st.integers(1, 4), st.integers(1, 500)),
    st.builds(lambda a, n: {"kind": "false_mahjong", "seat": a, "amount": n},
              st.integers(1, 4), st.integers(1, 100)),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(PENALTY, max_size=8), st.lists(st.integers(1, 8), max_size=4))
def test_transfers_sum_to_zero_deductions_apart_and_cancels_restore(
        penalties: list[dict[str, Any]], cancels: list[int]) -> None:
    base = _fold(random_session(seed=9, hands=2))
    state = base
    given_ = []
    for body in penalties:
        outcome = game.apply(state, {"penalty": body})
        if body.get("from") is not None and body["from"] == body.get("to"):
            assert not outcome.accepted
            continue
        assert outcome.accepted, outcome.violation
        state = outcome.state
        given_.append(body)
    for n in cancels:
        outcome = game.apply(state, {"penalty": {"cancel": n}})
        live = n <= len(state.penalties) and not state.penalties[n - 1].cancelled
        assert outcome.accepted == live
        state = outcome.state
    assert sum(state.totals) == 0
    kept = [b for b, p in zip(given_, state.penalties, strict=True) if not p.cancelled]
    expected = [0, 0, 0, 0]
    for b in kept:
        if b["kind"] == "deduction":
            expected[b["seat"] - 1] += b["amount"]
    assert list(state.deductions) == expected
    transfers = [t - b for t, b in zip(state.totals, base.totals, strict=True)]
    paid = [0, 0, 0, 0]
    for b in kept:
        if b["kind"] == "transfer":
            paid[b["from"] - 1] -= b["amount"]
            paid[b["to"] - 1] += b["amount"]
        elif b["kind"] == "false_mahjong":
            for p in range(4):
                paid[p] += b["amount"] if p != b["seat"] - 1 else -3 * b["amount"]
    assert transfers == paid


def test_a_penalty_is_undone_by_undo_and_the_rule_set_penalty_needs_an_amount() -> None:
    base = _fold(random_session(seed=4, hands=1))
    given_ = game.apply(base, {"penalty": {"kind": "transfer", "from": 1, "to": 3, "amount": 30,
                                           "reason": "slow play"}})
    assert given_.state.totals[0] == base.totals[0] - 30
    view = game.public_view(given_.state)
    assert view["penalties"][0]["payments"] == [{"from": 1, "to": 3, "amount": 30}]
    undone = game.apply(given_.state, {"correct": {"undo": 1}})
    assert undone.state.totals == base.totals and undone.state.penalties == ()
    refused = game.apply(base, {"penalty": {"kind": "false_mahjong", "seat": 2}})
    assert not refused.accepted and refused.violation is not None
    assert refused.violation.rule == "no_false_mahjong_penalty"


def test_replay_knows_the_names_and_penalties(tmp_path: Any, capsys: Any) -> None:
    import json

    from controller.cli import main

    events = _seated(random_session(seed=5, hands=1))
    events.append({"penalty": {"kind": "deduction", "seat": 4, "amount": 7}})
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in events))
    assert main(["replay", str(log)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["names"] == {"1": "Ann", "2": "Bo", "3": "Cai", "4": "Dee"}
    assert out["hands"][0]["names"]["4"] == "Dee" and out["hands"][0]["winds"]["1"] == "east"
    assert out["deductions"]["4"] == 7 and out["penalties"][0]["kind"] == "deduction"
