"""Rule set ``hua-bao`` (source 000), line by line as RULES.md section 6."""

from __future__ import annotations

from controller.scoring import bonus_patterns as b
from controller.scoring import limit_patterns as lim
from controller.scoring import patterns as p
from controller.scoring.rules import (
    Option,
    Rule,
    RuleSetSpec,
    check_positive_int,
    common_options,
    winner,
)

# Points (every player): the pung/kong/pair table.
SET_POINTS = (
    Rule("pair of dragons", p.pair_of_dragons, points=2),
    Rule("pair of own wind", p.pair_of_own_wind_only, points=2),
    Rule("pair of the prevailing wind", p.pair_of_prevailing_wind_only, points=2),
    Rule("pair of own wind that is also the prevailing wind", p.pair_of_own_prevailing_wind,
         points=4),
    Rule("exposed pung of simples", p.pung_points("pung", False, True), points=2),
    Rule("concealed pung of simples", p.pung_points("pung", True, True), points=4),
    Rule("exposed pung of terminals or honours", p.pung_points("pung", False, False), points=4),
    Rule("concealed pung of terminals or honours", p.pung_points("pung", True, False), points=8),
    Rule("exposed kong of simples", p.pung_points("kong", False, True), points=8),
    Rule("concealed kong of simples", p.pung_points("kong", True, True), points=16),
    Rule("exposed kong of terminals or honours", p.pung_points("kong", False, False), points=16),
    Rule("concealed kong of terminals or honours", p.pung_points("kong", True, False), points=32),
)

RULES = (
    *SET_POINTS,
    Rule("flower or season", b.each_bonus, points=4),
    winner(Rule("going Mahjong", p.going_mahjong, points="mahjong_bonus")),
    winner(Rule("going Mahjong by robbing a kong", p.robbing_kong, points=10)),
    # Doublings, every player.
    Rule("pung of dragons", p.pung_of_dragons, doubles=1),
    Rule("pung of own wind", p.pung_of_own_wind, doubles=1),
    Rule("pung of the prevailing wind", p.pung_of_prevailing_wind, doubles=1),
    Rule("all four flowers", b.all_flowers, doubles=2, bonus=True),
    Rule("all four seasons", b.all_seasons, doubles=2, bonus=True),
    Rule("own flower", b.own_flower_unless_all, doubles=1, bonus=True),
    Rule("own season", b.own_season_unless_all, doubles=1, bonus=True),
    # Doublings, the winner only.
    winner(Rule("one suit plus honours", p.one_suit_with_honours, doubles=1)),
    winner(Rule("one suit only", p.one_suit_only, doubles=3)),
    # Limit hands (the winner's only); earthly hand is at least half the limit.
    winner(Rule("all honours", lim.all_honours, limit=1, key="all_honours")),
    winner(Rule("heavenly hand", lim.heavenly_hand, limit=1, key="heavenly_hand")),
    winner(Rule("earthly hand", lim.earthly_hand, limit=0.5, key="earthly_hand")),
    winner(Rule("nine gates", lim.nine_gates, limit=1, key="nine_gates")),
    winner(Rule("four blessings", lim.four_blessings, limit=1, key="four_blessings")),
    winner(Rule("three great scholars", lim.three_great_scholars, limit=1,
                key="three_great_scholars")),
    winner(Rule("four kongs", lim.four_kongs, limit=1, key="four_kongs")),
    winner(Rule("imperial jade", lim.imperial_jade, limit=1, key="imperial_jade")),
    winner(Rule("writhing snake", lim.writhing_snake, limit=1, key="writhing_snake")),
    winner(Rule("cornerstone hand", lim.cornerstone, limit=1, key="cornerstone")),
    winner(Rule("thirteen orphans", lim.thirteen_orphans, limit=1, key="thirteen_orphans")),
)

OPTIONS = common_options(RULES, limit=500, bonus_tiles=False, wrong_count="repair")
OPTIONS["mahjong_bonus"] = Option(10, check_positive_int)

SPEC = RuleSetSpec(
    name="hua-bao",
    rules=RULES,
    options=OPTIONS,
    settlement="winner_paid",
    specials=frozenset({"thirteen_orphans"}),
)
