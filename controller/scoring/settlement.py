"""Settlement after a hand: who pays whom (RULES.md sections 6-8), after the limit is applied."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from itertools import combinations
from typing import TypeVar

from controller.scoring.model import ScoringError, Settlement
from controller.scoring.rules import RuleSet

K = TypeVar("K", bound=Hashable)


def settle(
    ruleset: RuleSet, dealer: K, winner: K | None, scores: Mapping[K, int],
    discarder: K | None = None,
) -> Settlement[K]:
    """Payments and nets for one hand; ``winner`` None is a washout (no payments).
    ``discarder``: whose discard gave the Mahjong (None: drawn by the winner); mcr uses it."""
    _check(dealer, winner, scores)
    if discarder is not None and (discarder not in scores or discarder == winner):
        raise ScoringError(
            f"discarder {discarder!r} must be one of the players other than the winner"
        )
    payments: list[tuple[K, K, int]] = []
    if winner is not None:
        if ruleset.settlement == "mcr":
            payments = _mcr(winner, scores, discarder)
        elif ruleset.settlement == "pairwise":
            payments = _pairwise(dealer, scores)
        else:
            payments = _winner_paid(dealer, winner, scores)
    net = {k: 0 for k in scores}
    for payer, payee, amount in payments:
        net[payer] -= amount
        net[payee] += amount
    return Settlement(payments, net)


def _check(dealer: object, winner: object, scores: Mapping[K, int]) -> None:
    if len(scores) != 4:
        raise ScoringError(f"settlement needs the scores of four players, not {len(scores)}")
    for who, score in scores.items():
        if isinstance(score, bool) or not isinstance(score, int) or score < 0:
            raise ScoringError(f"score of {who} must be a whole number >= 0, not {score!r}")
    if dealer not in scores:
        raise ScoringError(f"dealer {dealer!r} is not one of the players {list(scores)}")
    if winner is not None and winner not in scores:
        raise ScoringError(f"winner {winner!r} is not one of the players {list(scores)}")


def _lower_pays(a: K, b: K, scores: Mapping[K, int], amount: int) -> list[tuple[K, K, int]]:
    if amount <= 0:
        return []
    return [(a, b, amount)] if scores[a] < scores[b] else [(b, a, amount)]


def _winner_paid(dealer: K, winner: K, scores: Mapping[K, int]) -> list[tuple[K, K, int]]:
    """hua-bao and dmjl: each loser pays the winner's score (east double); then the losers
    settle their differences pairwise (east double)."""
    losers = [k for k in scores if k != winner]
    out = [
        (k, winner, scores[winner] * (2 if dealer in (k, winner) else 1))
        for k in losers
        if scores[winner] > 0
    ]
    for a, b in combinations(losers, 2):
        factor = 2 if dealer in (a, b) else 1
        out += _lower_pays(a, b, scores, abs(scores[a] - scores[b]) * factor)
    return out


def _mcr(winner: K, scores: Mapping[K, int], discarder: K | None) -> list[tuple[K, K, int]]:
    """mcr (RULES.md section 10): the discarder pays 8 + the fans, the two others 8 each;
    self-drawn, each of the three pays 8 + the fans. The dealer pays and receives single."""
    fans = scores[winner]
    return [
        (k, winner, 8 + fans if discarder is None or k == discarder else 8)
        for k in scores
        if k != winner
    ]


def round_half_up(amount: int, unit: int = 100) -> int:
    """To the nearest ``unit``, halves up: 150 -> 200, 149 -> 100."""
    return (amount + unit // 2) // unit * unit


def _pairwise(dealer: K, scores: Mapping[K, int]) -> list[tuple[K, K, int]]:
    """swedish: every pair settles the difference, doubled with the dealer, rounded to 100."""
    out: list[tuple[K, K, int]] = []
    for a, b in combinations(list(scores), 2):
        factor = 2 if dealer in (a, b) else 1
        out += _lower_pays(a, b, scores, round_half_up(abs(scores[a] - scores[b]) * factor))
    return out
