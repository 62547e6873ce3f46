"""Rule set ``dmjl`` (Kajongg's "Classical Chinese DMJL"), line by line as RULES.md section 8."""

from __future__ import annotations

from controller.scoring import bonus_patterns as b
from controller.scoring import limit_patterns as lim
from controller.scoring import patterns as p
from controller.scoring.rules import Option, Rule, RuleSetSpec, check_bool, common_options, winner
from controller.scoring.rulesets.hua_bao import SET_POINTS

# Points, every player: hua-bao's table, except that the wind pair points add up.
PAIR_POINTS = (
    Rule("pair of dragons", p.pair_of_dragons, points=2),
    Rule("pair of own wind", p.pair_of_own_wind, points=2),
    Rule("pair of the prevailing wind", p.pair_of_prevailing_wind, points=2),
)
PUNG_POINTS = tuple(r for r in SET_POINTS if not r.name.startswith("pair"))
BASE = (
    *PAIR_POINTS,
    *PUNG_POINTS,
    Rule("flower", b.each_flower, points=4),
    Rule("season", b.each_season, points=4),
)

WINNER_POINTS = tuple(winner(r) for r in (
    Rule("going Mahjong", p.going_mahjong, points=20),
    Rule("the winning tile completes a pair of simples", p.completes_pair_of_simples, points=2),
    Rule("the winning tile completes a pair of terminals or honours",
         p.completes_pair_of_terminals_or_honours, points=4),
    Rule("the winning tile was the only possible tile", p.single_wait, points=2),
    Rule("winning tile drawn", p.self_drawn, points=2),
))

EVERY_PLAYER_DOUBLINGS = (
    Rule("pung of dragons", p.pung_of_dragons, doubles=1),
    Rule("pung of own wind", p.pung_of_own_wind, doubles=1),
    Rule("pung of the prevailing wind", p.pung_of_prevailing_wind, doubles=1),
    Rule("own flower and own season", b.own_flower_and_season, doubles=1, bonus=True),
    Rule("all four flowers", b.all_flowers, doubles=1, bonus=True),
    Rule("all four seasons", b.all_seasons, doubles=1, bonus=True),
    Rule("three concealed pungs/kongs", p.concealed_pungs(3), doubles=1),
    Rule("little three dragons", p.three_little_dragons, doubles=1),
    Rule("big three dragons", p.three_great_dragons, doubles=2),
    Rule("little four joys", p.little_four_winds, doubles=1),
    Rule("big four joys", p.four_winds, doubles=2),
)

WINNER_DOUBLINGS = tuple(winner(r) for r in (
    Rule("zero-point hand", p.worthless, doubles=1),
    Rule("no chow", p.no_chow, doubles=1),
    Rule("only concealed sets", p.all_groups_concealed, doubles=1),
    Rule("one suit plus honours", p.one_suit_with_honours, doubles=1),
    Rule("one suit only", p.one_suit_only, doubles=3),
    Rule("only terminals and honours", p.only_terminals_and_honours, doubles=1),
    Rule("winning tile from the dead wall", p.from_dead_wall, doubles=1),
    Rule("winning tile is the last tile of the live wall", p.last_tile_drawn, doubles=1),
    Rule("winning on the discard of the last tile of the live wall", p.last_tile_discarded,
         doubles=1),
    Rule("robbing a kong", p.robbing_kong, doubles=1),
    Rule("Mahjong with original call", p.flag("original_call"), doubles=1),
))

LIMIT_HANDS = tuple(winner(Rule(name, when, limit=1, key=key)) for name, key, when in (
    ("one suit only, all concealed", "one_suit_concealed", lim.one_suit_concealed),
    ("only honours", "all_honours", lim.all_honours),
    ("hidden treasure", "hidden_treasure", lim.hidden_treasure),
    ("heads and tails", "heads_and_tails", lim.cornerstone),
    ("fourfold plenty", "fourfold_plenty", lim.four_kongs),
    ("three great scholars", "three_great_scholars", lim.three_great_scholars),
    ("four blessings", "four_blessings", lim.four_blessings),
    ("imperial jade", "imperial_jade", lim.imperial_jade),
    ("gathering the plum blossom from the roof", "plum_blossom", lim.plum_blossom),
    ("plucking the moon from the bottom of the sea", "moon_from_the_sea", lim.moon_from_the_sea),
    ("scratching a carrying pole", "scratching_pole", lim.scratching_pole),
    ("twofold fortune", "twofold_fortune", lim.twofold_fortune),
    ("heavenly hand", "heavenly_hand", lim.heavenly_hand),
    ("earthly hand", "earthly_hand", lim.earthly_hand),
    ("nine gates", "nine_gates", lim.nine_gates),
    ("thirteen orphans", "thirteen_orphans", lim.thirteen_orphans),
    ("squirming snake", "squirming_snake", lim.writhing_snake),
))

RULES = (*BASE, *WINNER_POINTS, *EVERY_PLAYER_DOUBLINGS, *WINNER_DOUBLINGS, *LIMIT_HANDS)

OPTIONS = common_options(RULES, limit=500, bonus_tiles=True, wrong_count="repair")
OPTIONS["roof_off"] = Option(False, check_bool)

SPEC = RuleSetSpec(
    name="dmjl",
    rules=RULES,
    options=OPTIONS,
    settlement="winner_paid",
    specials=frozenset({"thirteen_orphans"}),
    loser_pairs=True,
)
