"""Pattern metadata is one frozen record (rules.Pattern), read when a rule table is compiled; the
hand's facts are named; the special hands are one table (special.SPECIAL_HANDS)."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.scoring import HandInput, ScoringError, get_ruleset, score_hand
from controller.scoring import patterns as p
from controller.scoring.rules import Pattern, Rule, RuleSetSpec, common_options, with_meta
from controller.scoring.rulesets import RULESETS
from controller.scoring.special import SPECIAL_HANDS, special_hands
from controller.tiles import KIND_INDEX, KINDS, is_dragon, is_suited, is_terminal, is_wind
from tests.scoring.test_properties import prepared, winning_hands

HAND = HandInput("hua-bao", "south", "east", (), "1b2b3b 4b5b6b 7c8c9c 2d3d4d nwnw".split(),
                 (), True, "nw", "wall")


def test_an_unknown_pattern_field_is_an_error_where_it_is_written() -> None:
    with pytest.raises(ValueError, match="gaet"):
        with_meta(p.going_mahjong, gaet=lambda s: True)
    with pytest.raises(TypeError):
        Pattern(lambda v: [], gaet=lambda s: True)  # type: ignore[call-arg]
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.going_mahjong.one_hit = False  # type: ignore[misc]


def test_the_helpers_make_new_records_and_leave_the_old_ones_alone() -> None:
    base = p.hand_if(lambda v: True)
    gated = p.gated(lambda s: False, base)
    assert base.gate is None and gated.gate is not None and gated.test is base.test
    assert p.single_wait.needs_waits and not p.self_drawn.needs_waits
    assert p.seven_pairs.one_hit and p.seven_pairs.shape_gate is not None


def _spec(rule: Rule, specials: frozenset[str] = frozenset()) -> RuleSetSpec:
    rules = (Rule("going Mahjong", p.going_mahjong, points=20), rule)
    opts = common_options(rules, limit=500, bonus_tiles=False, wrong_count="repair")
    return RuleSetSpec("test", rules, opts, "winner_paid", specials)


def test_a_rule_whose_pattern_is_not_a_record_is_refused_when_the_table_is_made() -> None:
    bare = Rule("bare", lambda v: [v.facts.tiles], points=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'bare' of test: its pattern .* is not a Pattern"):
        _spec(bare)
    with pytest.raises(ValueError, match="unknown special hand"):
        _spec(Rule("one", p.going_mahjong, points=1), frozenset({"seven_pears"}))


def test_a_gated_group_item_is_refused_when_compiled() -> None:
    item = Rule("gated pairs", p.gated(lambda s: True, p.pair_of_dragons), points=1)
    with pytest.raises(ValueError, match="per-group item cannot be gated"):
        _spec(item)


@given(winning_hands())
def test_the_hands_facts_are_what_their_names_say(inp: HandInput) -> None:
    """HandFacts and Situation are made by position on the hot path: check every counted field
    by name against the tiles."""
    _, _, _, facts, sit = prepared(inp)
    tiles = [*inp.hand, *(t for m in inp.melds for t in m.tiles)]
    ones_nines = sum(is_terminal(t) for t in tiles)
    honours = [t for t in tiles if not is_suited(t)]
    assert (facts.rack, facts.size, facts.ones_nines) == (tuple(inp.hand), len(tiles), ones_nines)
    assert facts.majors == ones_nines + len(honours) and facts.honours == bool(honours)
    assert facts.suits == {t[1] for t in tiles if is_suited(t)}
    assert (facts.winning_tile, facts.win_source) == (inp.winning_tile, inp.win_source)
    assert facts.exposed_melds == sit.exposed == any(not m.concealed for m in inp.melds)
    assert sit.source == inp.win_source and sit.melds == bool(inp.melds)
    assert sit.dealer == (inp.seat_wind == "east")
    assert sit.dragons == sum(map(is_dragon, tiles)) and sit.winds == sum(map(is_wind, tiles))
    assert sit.simples_only == (facts.majors == 0)
    assert sit.majors_only == (facts.majors == len(tiles))
    assert sit.ones_nines_only == (ones_nines == len(tiles))
    assert sit.green_only == all(t in ("2b", "3b", "4b", "6b", "8b", "gd") for t in tiles)
    assert (sit.last_tile, sit.first_discard) == (inp.last_tile, inp.first_discard)


def test_every_rule_sets_special_hands_are_in_the_table() -> None:
    for spec in RULESETS.values():
        assert {h.name for h in special_hands(spec.specials)} == spec.specials
    with pytest.raises(ValueError, match="unknown special hand"):
        special_hands(frozenset({"eight_pairs"}))


def _counts(text: str) -> list[int]:
    c = [0] * 34
    for t in text.split():
        c[KIND_INDEX[t]] += 1
    return c


@pytest.mark.parametrize(("name", "hand"), [
    ("seven_pairs", "1b 1b 3b 3b 5c 5c 7c 7c 9d 9d ew ew rd rd"),
    ("thirteen_orphans", "1b 9b 1c 9c 1d 9d ew sw ww nw rd gd wd wd"),
    ("gates_of_heaven", "1b 1b 1b 2b 3b 4b 5b 5b 6b 7b 8b 9b 9b 9b"),
    ("wriggling_snake", "1c 1c 2c 3c 4c 5c 6c 7c 8c 9c ew sw ww nw"),
    ("triple_knitting", "2d 2b 2c 4d 4b 4c 6d 6b 6c 7d 7b 7c 8d 8b"),
    ("knitting", "2d 2b 3d 3b 4d 4b 5d 5b 6d 6b 7d 7b 9d 9b"),
    ("all_pair_honours", "ew ew 1d 1d 9b 9b gd gd rd rd sw sw ww ww"),
])
def test_a_special_hands_waits_are_the_kinds_that_complete_it(name: str, hand: str) -> None:
    """For every 13 tiles one short of the hand, ``waits`` is exactly the kinds with which
    ``complete`` holds; ``groups`` uses exactly the hand's tiles."""
    special = SPECIAL_HANDS[name]
    full = _counts(hand)
    assert special.complete(full)
    assert Counter(t for g in special.groups(full) for t in g.tiles) == Counter(hand.split())
    for k in {KIND_INDEX[t] for t in hand.split()}:
        short = full.copy()
        short[k] -= 1
        expected = set()
        for w in range(len(KINDS)):
            short[w] += 1
            if special.complete(short):
                expected.add(w)
            short[w] -= 1
        assert special.waits(short) == expected


def test_a_ruleset_without_a_special_hand_does_not_complete_it() -> None:
    orphans = "1b 9b 1c 9c 1d 9d ew sw ww nw rd gd wd wd".split()
    with pytest.raises(ScoringError, match="not complete"):
        score_hand(HandInput(get_ruleset("swedish"), "south", "east", (), orphans, (), True,
                             "wd", "wall"))


@given(st.lists(st.sampled_from(range(34)), min_size=7, max_size=7, unique=True),
       st.sampled_from(range(34)), st.booleans())
def test_a_special_hands_near_test_never_skips_a_wait(kinds: list[int], k: int, orphans: bool
                                                      ) -> None:
    """``near`` lets the scorer skip ``waits``: whenever 13 tiles wait on a special hand, the
    14 with any further tile are near it (seven pairs: six pairs and a single; thirteen
    orphans: the 13 with one missing and one paired, or all 13)."""
    c = [0] * 34
    if orphans:
        orph = [i for i in range(34) if KINDS[i] in _ORPHANS]
        for i in orph:
            c[i] = 1
        c[orph[kinds[0] % 13]] = 0 if kinds[1] % 2 else 1
        if kinds[1] % 2:
            c[orph[kinds[2] % 13]] += 1
        hand = SPECIAL_HANDS["thirteen_orphans"]
    else:
        for i in kinds[:6]:
            c[i] = 2
        c[kinds[6]] = 1
        hand = SPECIAL_HANDS["seven_pairs"]
    assert sum(c) == 13 and hand.waits(c)  # the 13 tiles wait on it
    if c[k] < 4:
        c[k] += 1
        assert hand.near(c)


_ORPHANS = frozenset(t for t in KINDS if is_terminal(t) or is_dragon(t) or is_wind(t))
