"""mcr played by the bots through the real engine: every invariant of test_sessions after
every event, the deal passing after every hand, and the false-Mahjong penalty."""

from __future__ import annotations

from typing import Any

from test_sessions import Tally, play_checked

from controller.game import apply, new_game, public_view, replay, replay_summary
from controller.players.director import Director

SESSIONS = 6


def test_bots_play_mcr_sessions_legally_and_most_mahjongs_hold_eight_fans() -> None:
    tally = Tally()
    for seed in range(SESSIONS):
        play_checked("mcr", seed, tally)
    assert tally.hands == SESSIONS * 8
    assert tally.mahjongs / tally.hands >= 0.25  # bots reach 8 fans, not only washouts


def _session(seed: int, inject_at: int | None = None) -> tuple[list[dict[str, Any]], Any]:
    director = Director("mcr", {}, 8, seed, careful=False)
    state = new_game()
    events: list[dict[str, Any]] = []
    while (event := director.next_action(state)) is not None:
        hand = state.hand
        if (inject_at is not None and len(events) >= inject_at and hand is not None
                and hand.phase == "play"):
            inject_at = None
            liar = hand.turn % 4 + 1  # not on turn, no tile to win on: a false Mahjong
            false = {"declare": {"seat": liar, "call": "mahjong"}}
            outcome = apply(state, false)
            assert not outcome.accepted and outcome.violation is not None
            assert outcome.violation.rule == "mahjong_incomplete_hand"
            before, after = state.totals, outcome.state.totals
            assert after[liar - 1] - before[liar - 1] == -30
            assert all(after[p] - before[p] == 10 for p in range(4) if p != liar - 1)
            state = outcome.state
            events.append(false)
        outcome = apply(state, event)
        assert outcome.accepted, outcome
        state = outcome.state
        events.append(event)
    return events, state


def test_the_deal_passes_after_every_hand_whoever_wins() -> None:
    _, state = _session(3)
    view = public_view(state)
    dealers = [r["dealer"] for r in view["hands"]]
    assert dealers == [1, 2, 3, 4, 1, 2, 3, 4]
    assert [r["prevailing_wind"] for r in view["hands"]] == ["east"] * 4 + ["south"] * 4
    assert any(r["result"] == "washout" for r in view["hands"]) or any(
        r["winner"] != r["dealer"] for r in view["hands"])


def test_false_mahjong_costs_ten_to_each_play_goes_on_and_replays() -> None:
    events, state = _session(5, inject_at=300)
    summary = replay_summary(state)
    assert len(summary["penalties"]) == 1
    nets = [sum(r["net"].values()) for r in summary["hands"]]
    assert nets == [0] * 8  # the hands' nets sum to zero; the penalty is apart
    assert sum(summary["totals"].values()) == 0
    hand_sum = {p: sum(r["net"][p] for r in summary["hands"]) for p in summary["totals"]}
    liar = summary["penalties"][0]["seat"]
    for p, total in summary["totals"].items():
        assert total - hand_sum[p] == (-30 if int(p) == liar else 10)
    again, _ = replay(events)
    assert again == state and replay_summary(again) == summary


def test_a_game_is_sixteen_hands_four_prevailing_winds() -> None:
    from controller.players.director import run_session

    events, state = run_session("mcr", {}, 17, 8, careful=False)
    view = public_view(state)
    assert len(view["hands"]) == 16 and view["session"]["game_over"]
    assert [r["prevailing_wind"] for r in view["hands"]] == [
        w for w in ("east", "south", "west", "north") for _ in range(4)]
    assert [r["dealer"] for r in view["hands"]] == [1, 2, 3, 4] * 4
    assert replay(events)[0] == state
