"""Scoring and settlement (architecture.md, Contract 2): arrangements, waits, rule sets as data.

    get_ruleset(name, options) -> RuleSet
    score_hand(HandInput) -> ScoreResult
    settle(ruleset, dealer, winner, scores) -> Settlement
    waits(concealed, melds, ruleset) -> list[Tile]
    is_complete(concealed, melds, ruleset) -> bool
"""

from controller.scoring.engine import arrangements, is_complete, score_hand, waits
from controller.scoring.model import (
    HandInput,
    ScoreItem,
    ScoreResult,
    ScoringError,
    Settlement,
)
from controller.scoring.rules import Rule, RuleSet
from controller.scoring.rulesets import PLAYABLE, RULESETS, get_ruleset
from controller.scoring.settlement import settle

__all__ = [
    "PLAYABLE",
    "RULESETS",
    "arrangements",
    "HandInput",
    "Rule",
    "RuleSet",
    "ScoreItem",
    "ScoreResult",
    "ScoringError",
    "Settlement",
    "get_ruleset",
    "is_complete",
    "score_hand",
    "settle",
    "waits",
]
