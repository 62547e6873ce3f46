"""Rule set ``bmja`` (Kajongg's "Classical Chinese BMJA", the British Mah-Jong Association's
classical rules), line by line as docs/scoring.md's table: limit 1000, at most one chow in a
complete hand, a calling hand to be declared before Mahjong."""

from __future__ import annotations

from controller.scoring import bonus_patterns as b
from controller.scoring import limit_patterns as lim
from controller.scoring import patterns as p
from controller.scoring.rules import Option, Rule, RuleSetSpec, check_bool, common_options, winner
from controller.scoring.rulesets.dmjl import PAIR_POINTS, PUNG_POINTS

# Points, every player: the pung/kong/pair table of dmjl (pair points add up).
BASE = (
    *PAIR_POINTS,
    *PUNG_POINTS,
    Rule("flower", b.each_flower, points=4),
    Rule("season", b.each_season, points=4),
)

WINNER_POINTS = tuple(winner(r) for r in (
    Rule("going Mahjong", p.going_mahjong, points=20),
    Rule("winning tile drawn", p.self_drawn, points=2),
))

EVERY_PLAYER_DOUBLINGS = (
    Rule("pung of dragons", p.pung_of_dragons, doubles=1),
    Rule("pung of own wind", p.pung_of_own_wind, doubles=1),
    Rule("pung of the prevailing wind", p.pung_of_prevailing_wind, doubles=1),
    Rule("own flower", b.own_flower, doubles=1, bonus=True),
    Rule("own season", b.own_season, doubles=1, bonus=True),
    Rule("all four flowers", b.all_flowers, doubles=2, bonus=True),
    Rule("all four seasons", b.all_seasons, doubles=2, bonus=True),
)

WINNER_DOUBLINGS = tuple(winner(r) for r in (
    Rule("no chow", p.no_chow, doubles=1),
    Rule("only concealed sets", p.all_groups_concealed, doubles=1),
    Rule("purity", lim.purity, doubles=3),
    Rule("only terminals and honours", p.only_terminals_and_honours, doubles=1),
    Rule("winning tile is the last tile of the live wall", p.last_tile_drawn, doubles=1),
    Rule("winning on the discard of the last tile of the live wall", p.last_tile_discarded,
         doubles=1),
    Rule("robbing a kong", p.robbing_kong, doubles=1),
    Rule("original call", p.flag("original_call"), doubles=1),
))

LIMIT_HANDS = tuple(winner(Rule(name, when, limit=value, key=key)) for name, key, value, when in (
    ("only honours", "all_honours", 1, lim.all_honours),
    ("buried treasure", "buried_treasure", 1, lim.buried_treasure),
    ("heads and tails", "heads_and_tails", 1, lim.cornerstone),
    ("fourfold plenty", "fourfold_plenty", 1, lim.four_kongs),
    ("three great scholars", "three_great_scholars", 1, lim.three_great_scholars_no_chow),
    ("four blessings", "four_blessings", 1, lim.four_blessings),
    ("imperial jade", "imperial_jade", 1, lim.imperial_jade),
    ("gathering the plum blossom from the roof", "plum_blossom", 1, lim.plum_blossom),
    ("plucking the moon from the bottom of the sea", "moon_from_the_sea", 1,
     lim.moon_from_the_sea),
    ("scratching a carrying pole", "scratching_pole", 1, lim.scratching_pole),
    ("twofold fortune", "twofold_fortune", 1, lim.twofold_fortune),
    ("blessing of heaven", "heavenly_hand", 1, lim.heavenly_hand),
    ("blessing of earth", "earthly_hand", 1, lim.earthly_hand),
    ("gates of heaven", "gates_of_heaven", 1, lim.gates_of_heaven),
    ("the 13 unique wonders", "thirteen_unique_wonders", 1, lim.thirteen_orphans),
    ("wriggling snake", "wriggling_snake", 1, lim.wriggling_snake),
    ("triple knitting", "triple_knitting", 0.5, lim.triple_knitting),
    ("knitting", "knitting", 0.5, lim.knitting),
    ("all pair honours", "all_pair_honours", 0.5, lim.all_pair_honours),
))

# A non-winner whose full hand waits on a tile that would make one of these (drawn from the
# wall) scores the fraction of the limit; calling for purity, its three doublings.
CALLING = (
    *(Rule(f"calling for {name}", lim.calling_for(key), limit=value, key=f"calling_{key}")
      for name, key, value in (
        ("only honours", "all_honours", 0.4),
        ("wriggling snake", "wriggling_snake", 0.4),
        ("triple knitting", "triple_knitting", 0.2),
        ("gates of heaven", "gates_of_heaven", 0.4),
        ("knitting", "knitting", 0.2),
        ("imperial jade", "imperial_jade", 0.4),
        ("the 13 unique wonders", "thirteen_unique_wonders", 0.4),
        ("three great scholars", "three_great_scholars", 0.4),
        ("all pair honours", "all_pair_honours", 0.2),
        ("heads and tails", "heads_and_tails", 0.4),
        ("four blessings", "four_blessings", 0.4),
        ("buried treasure", "buried_treasure", 0.4),
        ("fourfold plenty", "fourfold_plenty", 0.4),
    )),
    Rule("calling for purity", lim.calling_for("purity"), doubles=3),
)

RULES = (*BASE, *WINNER_POINTS, *EVERY_PLAYER_DOUBLINGS, *WINNER_DOUBLINGS, *LIMIT_HANDS,
         *CALLING)

OPTIONS = common_options(RULES, limit=1000, bonus_tiles=True, wrong_count="repair")
OPTIONS["roof_off"] = Option(False, check_bool)

SPEC = RuleSetSpec(
    name="bmja",
    rules=RULES,
    options=OPTIONS,
    settlement="winner_paid",
    specials=frozenset({"thirteen_orphans", "gates_of_heaven", "wriggling_snake",
                        "triple_knitting", "knitting", "all_pair_honours"}),
    requires_ready=True,
    loser_pairs=True,
    max_chows=1,
)
