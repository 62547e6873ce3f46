"""Riichi sessions exported as tenhou.net/6 JSON and mjai lines (issue 25, "Logs other tools
read"): whole hanchans of the project's riichi bots, each export replayed through riichienv (an
independent engine from PyPI, tests/sessions/referee.py): every move legal there, every hand's
deltas riichienv's value paid as RULES.md 11 says, the next hand's start scores and counters
carried from the log. Two hanchans in CI; the 20 of the issue in the ``slow`` test."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from controller.game import apply, new_game
from controller.players.director import Director
from controller.sessions import mjai, tenhou
from controller.sessions.kyoku import TraceError, trace
from tests.sessions.referee import Refused, referee


@cache
def hanchan(seed: int, hands: int = 10**6) -> tuple[dict[str, Any], ...]:
    """A whole hanchan of the riichi bots (or its first ``hands`` hands), every event accepted
    by the engine."""
    director = Director("riichi", {}, hands=hands, seed=seed, careful=False)
    state, events = new_game(), []
    while (event := director.next_action(state)) is not None:
        outcome = apply(state, event)
        assert outcome.accepted, (event, outcome.violation)
        state = outcome.state
        events.append(event)
    assert state.game_over or hands < 10**6
    return tuple(events)


SHORT = (1, 3)  # the first three hands of hanchan 1: riichi, a ron and a draw among them


def check(seed: int) -> Counter[str]:
    """Export one hanchan both ways and referee it; the kinds of events it held."""
    events = list(hanchan(seed))
    tr = trace(events)
    lines = list(mjai.events(tr))
    ref = referee(lines)
    assert ref.hands == len(tr.kyokus) > 0
    final = tr.final
    assert final is not None and ref.scores is not None
    points = [final["points"][str(p)] for p in (1, 2, 3, 4)]
    # the last hand's end as riichienv's replay carried it: the final points less the deposits
    # that went to first place (RULES.md 11)
    assert sum(points) == sum(ref.scores) + 1000 * ref.sticks
    log = tenhou.export(tr)
    assert len(log["log"]) == len(tr.kyokus)
    kinds: Counter[str] = Counter(e["type"] for e in lines)
    kinds["ron"] = sum(1 for e in lines if e["type"] == "hora" and e["actor"] != e["target"])
    return kinds


def test_a_hanchan_replays_in_riichienv() -> None:
    kinds = check(1)
    assert kinds["reach_accepted"] and kinds["ron"] and kinds["ryukyoku"] and kinds["chi"]


@pytest.mark.slow
def test_twenty_hanchans_replay_in_riichienv() -> None:
    kinds: Counter[str] = Counter()
    for seed in range(1, 21):
        kinds += check(seed)
    for kind in ("chi", "pon", "daiminkan", "ankan", "kakan", "reach_accepted", "ron",
                 "ryukyoku", "dora"):
        assert kinds[kind], kind


def _mutated(lines: list[dict[str, Any]], kind: str, change: dict[str, Any],
             nth: int = 0) -> list[dict[str, Any]]:
    out = [dict(e) for e in lines]
    hits = [i for i, e in enumerate(out) if e["type"] == kind]
    out[hits[nth]].update(change)
    return out


def test_the_referee_refuses_a_wrong_log() -> None:
    """The check can fail: a discard not in the hand, deltas off by 100, a start score off."""
    lines = list(mjai.events(trace(list(hanchan(*SHORT)))))
    hora = next(e for e in lines if e["type"] == "hora")
    wrong = [list(hora["deltas"])]
    wrong[0][hora["actor"]] += 100
    bad_scores = [list(e["scores"]) for e in lines if e["type"] == "start_kyoku"][1]
    bad_scores[0] += 1000
    for mutated in (_mutated(lines, "hora", {"deltas": wrong[0]}),
                    _mutated(lines, "start_kyoku", {"scores": bad_scores}, 1),
                    _mutated(lines, "dahai", {"pai": _absent(lines)})):
        with pytest.raises(Refused):
            referee(mutated)


def _absent(lines: list[dict[str, Any]]) -> str:
    """A tile the dealer's first hand holds none of (its first discard cannot be that)."""
    start = next(e for e in lines if e["type"] == "start_kyoku")
    oya = start["oya"]
    first = next(e for e in lines if e["type"] == "tsumo")
    held = set(start["tehais"][oya]) | {first["pai"]}
    return next(t for t in ("E", "S", "W", "N", "P", "F", "C", "1m", "9m", "1p", "9p")
                if t not in held)


NOISE = ({"move": {"tile": "ew", "from": "wall", "to": "rack:9"}},  # no such rack
         {"correct": {"undo": 100_000}},  # further back than the session
         {"declare": {"seat": 2, "call": "noten"}})  # noten only after an exhaustive draw


def test_refused_events_are_not_exported() -> None:
    """Only what stood: the same hands with refused events in them export the same logs."""
    events = list(hanchan(*SHORT))
    noisy: list[dict[str, Any]] = []
    state = new_game()
    refused = 0
    for i, e in enumerate(events):
        noisy.append(e)
        state = apply(state, e).state
        if i % 97 == 50 and state.hand is not None and state.hand.phase == "play":
            for n in NOISE:
                outcome = apply(state, n)
                assert not outcome.accepted, n
                state, refused = outcome.state, refused + 1
                noisy.append(n)
    assert refused > 3
    clean, dirty = trace(events), trace(noisy)
    assert json.dumps(tenhou.export(clean)) == json.dumps(tenhou.export(dirty))
    assert list(mjai.events(clean)) == list(mjai.events(dirty))


def test_other_rule_sets_are_refused() -> None:
    with pytest.raises(TraceError, match="riichi logs"):
        trace([{"session": {"ruleset": "hua-bao", "options": {}}}])


def test_tenhou_log_shape() -> None:
    """tenhou.net/6: per hand [[round, honba, sticks], scores, dora, ura, then per seat the
    deal (13), the draws and the discards], and the result (Tenhou's own layout)."""
    tr = trace(list(hanchan(*SHORT)))
    log = tenhou.export(tr)
    assert log["rule"]["aka"] == 0 and len(log["name"]) == 4
    for k, entry in zip(tr.kyokus, log["log"], strict=True):
        assert len(entry) == 17
        assert entry[0] == [{"east": 0, "south": 4}[k.wind] + (k.dealer - 1), k.honba, k.sticks]
        for seat in range(4):
            deal, takes, discards = entry[4 + 3 * seat: 7 + 3 * seat]
            assert len(deal) == 13 and all(11 <= t <= 47 for t in deal)
            assert len(takes) - len(discards) in (0, 1)  # a winner by tsumo keeps its draw
        assert entry[16][0] in ("和了", "流局")
        if entry[16][0] == "和了":  # a win's deltas add up to the deposits it took
            assert sum(entry[16][1]) >= 1000 * k.sticks and sum(entry[16][1]) % 1000 == 0


Event = dict[str, Any]


def edit_draws(events: list[Event], pick: Callable[[int], bool],
               edit: Callable[[Event, dict[str, Any]], list[Event]]) -> tuple[list[Event], int]:
    """The log with each draw ``pick(i)`` chooses (while a hand is played) replaced by
    ``edit(event, move)``, every edited event accepted by the engine; and how many draws."""
    edited: list[Event] = []
    state, count = new_game(), 0
    for i, e in enumerate(events):
        move = e.get("move") or {}
        drawn = move.get("from") == "wall" and str(move.get("to")).startswith("rack")
        if drawn and pick(i) and state.hand is not None and state.hand.phase == "play":
            for x in edit(e, move):
                outcome = apply(state, x)
                assert outcome.accepted, x
                state = outcome.state
                edited.append(x)
            count += 1
            continue
        state = apply(state, e).state
        edited.append(e)
    return edited, count


def test_undone_draws_are_not_exported() -> None:
    """A draw taken back by the operator's undo (and the tile put back) is not in the logs."""
    events = list(hanchan(*SHORT))

    def undone(e: Event, move: dict[str, Any]) -> list[Event]:
        back = {"move": {"tile": move["tile"], "from": move["to"], "to": "wall"}}
        return [e, {"correct": {"undo": 1}}, back, e]

    edited, count = edit_draws(events, lambda i: i % 50 < 5, undone)
    assert count > 5
    assert list(mjai.events(trace(events))) == list(mjai.events(trace(edited)))


def test_a_misread_tile_set_right_is_exported_as_the_right_tile() -> None:
    """A draw read as another tile, then ``reassign``ed by the operator: the logs show the tile
    as it was set right, from the draw on (the same logs as without the misreading)."""
    events = list(hanchan(*SHORT))

    def misread(e: Event, move: dict[str, Any]) -> list[Event]:
        seen = "9b" if move["tile"] != "9b" else "1c"
        return [{"move": {"tile": seen, "from": "wall", "to": move["to"]}},
                {"correct": {"reassign": {"zone": move["to"], "tile": seen, "as": move["tile"]}}}]

    edited, count = edit_draws(events, lambda i: i % 40 == 3, misread)
    assert count >= 3
    assert list(mjai.events(trace(events))) == list(mjai.events(trace(edited)))


def test_an_abortive_draw_is_exported_with_tenhous_name() -> None:
    """``abortive_draws: true``: the bots' hanchan of seed 4 holds two nine terminals
    (tests/scoring/test_riichi_hanchan.py); tenhou.net/6 writes such a hand's result as the
    abortive draw's name alone, ``["九種九牌"]``, and the exhaustive draws as before."""
    director = Director("riichi", {"abortive_draws": True}, hands=10**6, seed=4, careful=False)
    state, events = new_game(), []
    while (event := director.next_action(state)) is not None:
        state = apply(state, event).state
        events.append(event)
    tr = trace(events)
    results = [entry[16] for entry in tenhou.export(tr)["log"]]
    assert results.count(["九種九牌"]) == 2
    assert all(r[0] in ("和了", "流局", "九種九牌") for r in results)
    assert tr.final is not None and tr.final == state.rt.final
