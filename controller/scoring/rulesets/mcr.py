"""Rule set ``mcr`` (RULES.md section 10): the options; the fans are in controller.scoring.mcr."""

from __future__ import annotations

from controller.scoring.rules import RuleSetSpec, common_options

#: the 8-fan minimum of a Mahjong (flowers not counted); the game checks it
MINIMUM_FANS = 8
#: what a false Mahjong costs the declarer, paid to each other player
FALSE_MAHJONG_PENALTY = 10

OPTIONS = common_options((), limit=1000, bonus_tiles=True, wrong_count="repair")

SPEC = RuleSetSpec(
    name="mcr",
    rules=(),
    options=OPTIONS,
    settlement="mcr",
    specials=frozenset({"seven_pairs", "thirteen_orphans"}),
    notes="fans, not points: scored by controller.scoring.mcr",
)
