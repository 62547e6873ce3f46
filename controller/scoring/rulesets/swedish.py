"""Rule set ``swedish`` (source 001), line by line as RULES.md section 7."""

from __future__ import annotations

from controller.scoring import bonus_patterns as b
from controller.scoring import patterns as p
from controller.scoring.rules import Rule, RuleSetSpec, common_options, winner
from controller.scoring.rulesets.hua_bao import SET_POINTS

# Base points: the pung/kong/pair table of hua-bao; each flower or season 4.
BASE = (*SET_POINTS, Rule("flower or season", b.each_bonus, points=4))

# Mahjong points (winner only).
MAHJONG_POINTS = tuple(winner(r) for r in (
    Rule("going Mahjong", p.going_mahjong, points=20),
    Rule("worthless hand", p.worthless, points=10),
    Rule("robbing a kong", p.robbing_kong, points=10),
    Rule("the winning tile completes a chow", p.completes_chow, points=10),
    Rule("fully concealed hand", p.no_exposed_melds, points=10),
    Rule("winning tile from the live wall", p.from_live_wall, points=2),
    Rule("winning tile from the dead wall", p.from_dead_wall, points=2),
    Rule("only one tile type could complete the hand", p.single_wait, points=4),
    Rule("seven pairs", p.seven_pairs, points=40),
))

# Doublings for the winner only: combination doublings, then bonus doublings.
WINNER_DOUBLINGS = tuple(winner(r) for r in (
    Rule("concealed hand, winning tile from the wall", p.concealed_from_wall, doubles=1),
    Rule("no terminals or honours", p.all_simples, doubles=1),
    Rule("a terminal or honour in every set and in the pair", p.terminal_or_honour_in_each_group,
         doubles=1),
    Rule("worthless hand, waiting on two tile types", p.worthless_two_waits, doubles=1),
    Rule("seven pairs", p.seven_pairs, doubles=2),
    Rule("only pungs/kongs, no chow", p.no_chow, doubles=2),
    Rule("only terminals and honours", p.only_terminals_and_honours, doubles=2),
    Rule("one suit plus winds or dragons", p.one_suit_with_honours, doubles=2),
    Rule("one suit only", p.one_suit_only, doubles=4),
    Rule("only winds and dragons", p.only_honours, limit=1, key="all_honours"),
    Rule("winning as dealer", p.winner_is_dealer, doubles=1, bonus=True),
    Rule("winning on a replacement tile", p.from_dead_wall, doubles=1, bonus=True),
    Rule("winning on the last tile of the live wall", p.last_tile_drawn, doubles=1, bonus=True),
))

# Doublings for every player: combination doublings, then bonus doublings.
EVERY_PLAYER_DOUBLINGS = (
    Rule("pung of dragons", p.pung_of_dragons, doubles=1),
    Rule("pung of own wind", p.pung_of_own_wind, doubles=1),
    Rule("pung of the prevailing wind", p.pung_of_prevailing_wind, doubles=1),
    Rule("the same chow in all three suits", p.same_chow_three_suits, doubles=1),
    Rule("1-2-3, 4-5-6 and 7-8-9 of one suit", p.chows_123_456_789, doubles=2),
    Rule("three concealed pungs/kongs", p.concealed_pungs(3), doubles=2),
    Rule("three little dragons", p.three_little_dragons, doubles=4),
    Rule("four concealed pungs/kongs", p.concealed_pungs(4), limit=1, key="four_concealed_pungs"),
    Rule("three great dragons", p.three_great_dragons, limit=1, key="three_great_dragons"),
    Rule("pungs/kongs of all four winds", p.four_winds, limit=1, key="four_winds"),
    Rule("own flower", b.own_flower_unless_all, doubles=1, bonus=True),
    Rule("own season", b.own_season_unless_all, doubles=1, bonus=True),
    Rule("all four flowers", b.all_flowers, doubles=2, bonus=True),
    Rule("all four seasons", b.all_seasons, doubles=2, bonus=True),
    Rule("all eight bonus tiles", b.all_eight_bonus, limit=1, key="all_eight_bonus", bonus=True),
)

RULES = (*BASE, *MAHJONG_POINTS, *WINNER_DOUBLINGS, *EVERY_PLAYER_DOUBLINGS)

SPEC = RuleSetSpec(
    name="swedish",
    rules=RULES,
    options=common_options(RULES, limit=3000, bonus_tiles=True, wrong_count="dead_hand"),
    settlement="pairwise",
    specials=frozenset({"seven_pairs"}),
    requires_ready=True,
)
