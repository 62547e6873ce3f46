"""The rule sets by name: ``hua-bao``, ``swedish``, ``dmjl`` (RULES.md sections 6-8), ``bmja``
(docs/scoring.md), ``mcr`` (RULES.md section 10), ``riichi`` (section 11)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.scoring.model import ScoringError
from controller.scoring.rules import RuleSet, RuleSetSpec, resolve_options
from controller.scoring.rulesets import bmja, dmjl, hua_bao, mcr, riichi, swedish

RULESETS: dict[str, RuleSetSpec] = {
    s.name: s for s in (hua_bao.SPEC, swedish.SPEC, dmjl.SPEC, bmja.SPEC, mcr.SPEC, riichi.SPEC)
}

#: the rule sets the game plays (a session, `serve`, `simulate`, `replay`); the others are
#: scored and settled only
PLAYABLE = tuple(name for name, spec in RULESETS.items() if spec.playable)


def get_ruleset(name: str, options: Mapping[str, Any] | None = None) -> RuleSet:
    """The rule set ``name`` with ``options`` resolved; ScoringError names an unknown one."""
    spec = RULESETS.get(name) if isinstance(name, str) else None
    if spec is None:
        raise ScoringError(
            f"unknown rule set {name!r}: use one of {', '.join(RULESETS)}"
        )
    return RuleSet(spec, resolve_options(spec, options))
