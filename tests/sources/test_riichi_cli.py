"""The riichi CLI contracts of FORMATS.md: `simulate --ruleset riichi` (a hand through the
ptys, the bridge and the service) and `replay` of a riichi log, a whole hanchan with its
`final`; the result worked out here from the hands' nets by RULES.md 11."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main
from controller.game import apply, new_game
from controller.players.director import Director

RIICHI_FIELDS = {"honba", "riichi_sticks", "riichi", "dora_indicators", "ura_dora_indicators",
                 "winners", "tenpai", "points"}
UMA = (15, 5, -5, -15)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, Any, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else out), err


def _check_hand(hand: dict[str, Any]) -> None:
    assert RIICHI_FIELDS <= set(hand)
    assert hand["result"] in ("mahjong", "washout", "nagashi_mangan", "chombo")
    # a hand's nets sum to minus the deposits left on the table (FORMATS.md replay)
    left = hand["riichi_sticks"] + len(hand["riichi"])
    if hand["result"] == "mahjong":
        left = 0
    assert sum(hand["net"].values()) == -1000 * left
    if hand["result"] == "mahjong":
        assert hand["winners"] and hand["winner"] == hand["winners"][0]


def test_simulate_ruleset_riichi_plays_a_hand_and_its_log_replays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 12: the dealer's riichi and win from the wall (an ura indicator laid), 161 events
    with the table cleared (seed 5: a win from the wall without riichi, 346)."""
    log = tmp_path / "riichi.jsonl"
    code, summary, _ = _run(["simulate", "--ruleset", "riichi", "--hands", "1", "--seed", "12",
                             "--quiet", "--log", str(log)], capsys)
    assert code == 0 and summary["violations"] == []
    assert summary["link"]["bad_frames"] == 0
    assert len(summary["hands"]) == 1
    hand = summary["hands"][0]
    _check_hand(hand)
    assert hand["points"] == {p: 30_000 + n for p, n in hand["net"].items()}
    code, replayed, _ = _run(["replay", str(log)], capsys)
    assert code == 0
    assert replayed["hands"] == summary["hands"] and replayed["totals"] == summary["totals"]


def _hanchan_log(path: Path, seed: int) -> None:
    director = Director("riichi", {}, hands=10**6, seed=seed, careful=False)
    state, lines = new_game(), []
    while (event := director.next_action(state)) is not None:
        outcome = apply(state, event)
        assert outcome.accepted
        state = outcome.state
        lines.append(json.dumps(event))
    assert state.game_over
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_replay_of_a_riichi_hanchan_gives_the_final_with_the_uma(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "hanchan.jsonl"
    _hanchan_log(log, seed=3)
    code, out, err = _run(["replay", str(log)], capsys)
    assert code == 0 and err == "" and out["violations"] == []
    hands = out["hands"]
    running = dict.fromkeys("1234", 30_000)
    for hand in hands:
        _check_hand(hand)
        running = {p: running[p] + hand["net"][p] for p in "1234"}
        assert hand["points"] == running  # each seat's points after the hand
    assert out["totals"] == {p: sum(h["net"][p] for h in hands) for p in "1234"}
    assert hands[-1]["points"] == {p: 30_000 + out["totals"][p] for p in "1234"}
    # RULES.md 11: the deposits left go to first place; result = (points - 30,000) / 1,000
    # plus the uma by place
    points = {p: 30_000 + out["totals"][p] for p in "1234"}
    left = -sum(out["totals"].values())
    top = max(points, key=lambda p: points[p])
    points[top] += left
    order = sorted(points.values(), reverse=True)
    assert len(set(order)) == 4
    final = out["final"]
    assert final["points"] == points
    assert final["uma"] == {p: UMA[order.index(points[p])] for p in "1234"}
    assert final["result"] == pytest.approx(
        {p: (points[p] - 30_000) / 1000 + UMA[order.index(points[p])] for p in "1234"})
    assert final["penalties"] == dict.fromkeys("1234", 0)
