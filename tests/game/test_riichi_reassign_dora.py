"""A misread dora indicator corrected on the operator's reassign (zone ``dora``, TABLE.md): in
play it becomes the indicator; after a win it is scored and settled again. The points come from
the rule book (base = fu x 2^(han + 2), a non-dealer's ron 4 x base rounded up to 100) on the
hands of tests/game/test_riichi_rules.py's double ron."""

from __future__ import annotations

from controller.game import public_view, replay, replay_summary
from tests.game import test_riichi_rules as rr
from tests.game.logbuilder import Log


def _fix(log: Log, old: str, new: str) -> Log:
    return log.raw({"correct": {"reassign": {"zone": "dora", "tile": old, "as": new}}})


def test_an_indicator_corrected_in_play() -> None:
    state, outcomes = replay(_fix(rr._log(), "9b", "8b").events)
    assert outcomes[-1].accepted, outcomes[-1].violation
    assert public_view(state)["riichi"]["dora_indicators"] == ["8b"]
    # the wall's count follows: the 9b is back among the tiles not yet seen
    _, outcomes = replay(_fix(rr._log(), "5c", "8b").events)
    assert not outcomes[-1].accepted and outcomes[-1].violation.rule == "tile_not_there"


def test_an_indicator_corrected_after_the_win_rescores_it() -> None:
    """South's 1b was a dora (indicator 9b): 3 han 40 fu, 5,200. Read right, the indicator is
    ew (the dora sw, held by no winner): South 2 han 40 fu, 4 x 40 x 2^4 = 2,560 -> 2,600."""
    log = rr.several_rons()
    state, _ = replay(log.events)
    assert replay_summary(state)["hands"][0]["net"] == {"1": 0, "2": 5200, "3": 2600,
                                                        "4": -7800}
    state, outcomes = replay(_fix(log, "9b", "ew").events)
    assert outcomes[-1].accepted, outcomes[-1].violation
    record = replay_summary(state)["hands"][0]
    assert record["dora_indicators"] == ["ew"]
    assert record["net"] == {"1": 0, "2": 2600, "3": 2600, "4": -5200}
    assert record["points"]["2"] == 32_600 and len(state.hands) == 1


def test_no_dora_pad_outside_riichi() -> None:
    log = Log("hua-bao", {}).move("9b", "wall", "rack:1")  # a hand has begun
    _, outcomes = replay(_fix(log, "9b", "8b").events)
    assert not outcomes[-1].accepted and "riichi" in outcomes[-1].violation.message
