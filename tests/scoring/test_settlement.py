"""Both settlement schemes: winner paid then losers pairwise (hua-bao, dmjl); every pair
(swedish) with rounding to 100 half up; ties and washouts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.scoring import ScoringError, get_ruleset, settle
from controller.scoring.settlement import round_half_up

WINDS = ("east", "south", "west", "north")


def test_east_wins_each_loser_pays_double() -> None:
    s = settle(get_ruleset("hua-bao"), "east", "east",
               {"east": 100, "south": 0, "west": 0, "north": 0})
    assert s.payments == [("south", "east", 200), ("west", "east", 200), ("north", "east", 200)]
    assert s.net["east"] == 600


def test_dmjl_settles_like_hua_bao() -> None:
    scores = {"east": 0, "south": 44, "west": 8, "north": 20}
    a = settle(get_ruleset("dmjl"), "east", "south", scores)
    b = settle(get_ruleset("hua-bao"), "east", "south", scores)
    assert a.net == b.net == {"east": -144, "south": 176, "west": -40, "north": 8}


def test_losers_with_equal_scores_pay_each_other_nothing() -> None:
    s = settle(get_ruleset("hua-bao"), "east", "south",
               {"east": 10, "south": 40, "west": 10, "north": 10})
    assert [p for p in s.payments if p[1] != "south"] == []


def test_washout_has_no_payments() -> None:
    for name in ("hua-bao", "swedish", "dmjl"):
        s = settle(get_ruleset(name), "east", None,
                   {"east": 30, "south": 8, "west": 0, "north": 100})
        assert s.payments == [] and set(s.net.values()) == {0}


@pytest.mark.parametrize(("amount", "rounded"), [(0, 0), (49, 0), (50, 100), (149, 100),
                                                  (150, 200), (112, 100), (250, 300)])
def test_round_half_up(amount: int, rounded: int) -> None:
    assert round_half_up(amount) == rounded


def test_swedish_pairs_with_the_dealer_are_doubled_then_rounded() -> None:
    s = settle(get_ruleset("swedish"), "south", "west",
               {"east": 0, "south": 30, "west": 130, "north": 60})
    # south-west: 100 * 2 = 200; east-west 130 -> 100; west-north 70 -> 100;
    # east-south 30 * 2 = 60 -> 100; south-north 30 * 2 = 60 -> 100; east-north 60 -> 100
    assert ("south", "west", 200) in s.payments
    assert ("east", "west", 100) in s.payments
    assert ("north", "west", 100) in s.payments
    assert ("east", "south", 100) in s.payments
    assert ("south", "north", 100) in s.payments
    assert ("east", "north", 100) in s.payments
    assert s.net == {"east": -300, "south": -200, "west": 400, "north": 100}


def test_swedish_small_differences_round_to_nothing() -> None:
    s = settle(get_ruleset("swedish"), "east", "south",
               {"east": 0, "south": 20, "west": 0, "north": 0})
    assert s.payments == []  # 20 * 2 = 40 with the dealer, 20 with the others: all round to 0
    s = settle(get_ruleset("swedish"), "east", "south",
               {"east": 0, "south": 25, "west": 0, "north": 0})
    assert s.payments == [("east", "south", 100)]  # 25 * 2 = 50: half up to 100

def test_bad_input_is_named() -> None:
    with pytest.raises(ScoringError, match="dealer"):
        settle(get_ruleset("swedish"), "nobody", "east", dict.fromkeys(WINDS, 0))
    with pytest.raises(ScoringError, match="four players"):
        settle(get_ruleset("swedish"), "east", "east", {"east": 1})
    with pytest.raises(ScoringError, match="score of west"):
        settle(get_ruleset("swedish"), "east", "east",
               {"east": 1, "south": 0, "west": -4, "north": 0})


scores_st = st.fixed_dictionaries({w: st.integers(0, 3000) for w in WINDS})


@given(scores_st, st.sampled_from(("hua-bao", "swedish", "dmjl")), st.sampled_from(WINDS),
       st.sampled_from((*WINDS, None)))
def test_nets_sum_to_zero(scores: dict[str, int], name: str, dealer: str,
                          winner: str | None) -> None:
    s = settle(get_ruleset(name), dealer, winner, scores)
    assert sum(s.net.values()) == 0
    assert all(amount > 0 for _, _, amount in s.payments)
    if name == "swedish":
        assert all(amount % 100 == 0 for _, _, amount in s.payments)
