"""The scripted table logs in tests/game/logs, replayed through the ``replay`` command's code."""

from __future__ import annotations

import pytest

from controller.cli.replay_cmd import parse_lines, summarize
from tests.game.scenarios import LOGS, SCENARIOS

NAMES = sorted(SCENARIOS)


@pytest.mark.parametrize("name", NAMES)
def test_log_file_is_up_to_date(name: str) -> None:
    """The checked-in log is what the script builds (regenerate: python -m tests.game.scenarios)."""
    assert (LOGS / f"{name}.jsonl").read_text(encoding="utf-8") == SCENARIOS[name]().log.jsonl()


@pytest.mark.parametrize("name", NAMES)
def test_replay_gives_the_expected_hands_and_violations(name: str) -> None:
    scenario = SCENARIOS[name]()
    lines = (LOGS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    summary = summarize(parse_lines(lines))
    assert [(v["line"], v["rule"]) for v in summary["violations"]] == scenario.violations
    assert [(h["result"], h["winner"]) for h in summary["hands"]] == scenario.hands
    for hand in summary["hands"]:
        assert sum(hand["net"].values()) == 0
    if scenario.check is not None:
        scenario.check(summary)


def test_every_violation_name_of_formats_md_is_covered() -> None:
    rules = {rule for build in SCENARIOS.values() for _, rule in build().violations}
    assert rules >= {
        "draw_out_of_turn", "discard_out_of_turn", "chow_not_from_previous",
        "pair_claim_without_mahjong", "kong_claim_on_exposed_pung", "claim_outranked",
        "claim_too_late", "mahjong_incomplete_hand", "mahjong_without_ready",
        "mahjong_without_doubling", "wrong_tile_count", "fifth_copy", "tile_not_there",
        "exposed_set_changed",
    }


def test_violation_messages_name_the_seats() -> None:
    lines = (LOGS / "claim_violations.jsonl").read_text(encoding="utf-8").splitlines()
    summary = summarize(parse_lines(lines))
    chow = next(v for v in summary["violations"] if v["rule"] == "chow_not_from_previous")
    assert chow["seat"] == 3
    assert chow["message"] == "West may not chow 5b: only South, who plays after East, may"
