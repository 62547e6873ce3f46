"""Properties of the scorer over random complete hands (hypothesis)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any, NamedTuple

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.scoring import HandInput, score_hand, waits
from controller.scoring.engine import (
    Arrangements,
    _facts,
    _winner_arrangements,
    _winner_views,
    ruleset_of,
)
from controller.scoring.rules import RuleSet
from controller.scoring.validate import CheckedHand, check_input
from controller.scoring.view import HandFacts, Shape, Situation
from controller.tiles import KINDS, Meld

RULESETS = ("hua-bao", "swedish", "dmjl")
SOURCES = ("wall", "discard", "replacement", "robbed_kong")


@st.composite
def sets(draw: st.DrawFn, used: Counter[str]) -> tuple[str, ...]:
    """A chow, pung or kong that still fits the four copies of each kind."""
    while True:
        shape = draw(st.sampled_from(("chow", "chow", "pung", "pung", "kong")))
        k = draw(st.integers(0, 33))
        if shape == "chow":
            if k >= 27 or k % 9 > 6:
                continue
            tiles = tuple(KINDS[k + i] for i in range(3))
        else:
            tiles = (KINDS[k],) * (3 if shape == "pung" else 4)
        if all(used[t] + tiles.count(t) <= 4 for t in set(tiles)):
            used.update(tiles)
            return tiles


@st.composite
def winning_hands(draw: st.DrawFn) -> HandInput:
    used: Counter[str] = Counter()
    melds: list[Meld] = []
    concealed: list[str] = []
    for _ in range(4):
        tiles = draw(sets(used))
        if len(tiles) == 4:
            melds.append(Meld(tiles, concealed=draw(st.booleans())))
        elif draw(st.booleans()):
            melds.append(Meld(tiles))
        else:
            concealed.extend(tiles)
    pair = draw(st.sampled_from([k for k in KINDS if used[k] <= 2]))
    concealed += [pair, pair]
    concealed = draw(st.permutations(concealed))
    source = draw(st.sampled_from(SOURCES))
    seat = draw(st.sampled_from(("east", "south", "west", "north")))
    return HandInput(
        ruleset=draw(st.sampled_from(RULESETS)), seat_wind=seat,
        prevailing_wind=draw(st.sampled_from(("east", "south", "west", "north"))),
        melds=melds, hand=concealed, mahjong=True, winning_tile=draw(st.sampled_from(concealed)),
        win_source=source, last_tile=draw(st.booleans()),
    )


def _all_tiles(inp: HandInput) -> Counter[str]:
    return Counter([*inp.hand, *(t for m in inp.melds for t in m.tiles)])


@given(winning_hands(), st.randoms())
def test_score_does_not_depend_on_tile_order(inp: HandInput, rnd: Any) -> None:
    hand = list(inp.hand)
    melds = list(inp.melds)
    rnd.shuffle(hand)
    rnd.shuffle(melds)
    a, b = score_hand(inp), score_hand(replace(inp, hand=hand, melds=melds))
    assert (a.score, a.points, a.doubles) == (b.score, b.points, b.doubles)


@given(winning_hands())
def test_arrangement_uses_exactly_the_hands_tiles(inp: HandInput) -> None:
    r = score_hand(inp)
    assert Counter(t for g in r.arrangement for t in g) == _all_tiles(inp)


@given(winning_hands(), st.integers(0, 12))
def test_non_winner_arrangement_and_leftovers_use_exactly_the_tiles(
    inp: HandInput, drop: int
) -> None:
    hand = list(inp.hand)[: max(0, len(inp.hand) - 1 - drop)]
    loser = replace(inp, hand=hand, mahjong=False, winning_tile=None, win_source=None)
    r = score_hand(loser)
    assert Counter([*(t for g in r.arrangement for t in g), *r.leftover]) == _all_tiles(loser)


@given(winning_hands())
def test_concealing_a_kong_never_scores_less(inp: HandInput) -> None:
    exposed = [i for i, m in enumerate(inp.melds) if len(m.tiles) == 4 and not m.concealed]
    for i in exposed:
        melds = list(inp.melds)
        melds[i] = Meld(melds[i].tiles, concealed=True)
        assert score_hand(replace(inp, melds=melds)).score >= score_hand(inp).score


@settings(max_examples=50)
@given(winning_hands())
def test_concealing_a_pung_never_scores_less_in_hua_bao(inp: HandInput) -> None:
    inp = replace(inp, ruleset="hua-bao")
    pungs = [i for i, m in enumerate(inp.melds) if len(m.tiles) == 3]
    for i in pungs:
        melds = list(inp.melds)
        moved = melds.pop(i)
        hidden = replace(inp, melds=melds, hand=[*inp.hand, *moved.tiles])
        assert score_hand(hidden).score >= score_hand(inp).score


@given(winning_hands())
def test_waits_are_exactly_the_kinds_that_complete(inp: HandInput) -> None:
    """Against the tests' own completeness check (tests/scoring/brute.py), not is_complete."""
    from brute import waits as brute_waits

    from controller.scoring import get_ruleset, waits

    rs = get_ruleset(str(inp.ruleset))
    rest = list(inp.hand)
    rest.remove(str(inp.winning_tile))
    held = _all_tiles(inp)
    expected = [k for k in KINDS if k in brute_waits(rest, inp.melds, str(inp.ruleset))]
    got = waits(rest, inp.melds, rs)
    assert got == expected
    assert inp.winning_tile in got or held[str(inp.winning_tile)] == 4 or (
        inp.ruleset == "bmja")  # a winning hand of the generator may hold two chows


@given(winning_hands(), st.booleans())
def test_a_scores_numbers_are_the_sums_of_its_explained_items(inp: HandInput, won: bool) -> None:
    """The numbers are counted on a fast path (fixed hand numbers, one_hit items, memoised
    groups); the explanation is made item by item. They must always agree."""
    if not won:  # the same tiles less one, as a player who did not win
        hand = list(inp.hand)
        hand.remove(str(inp.winning_tile))
        inp = replace(inp, hand=hand, mahjong=False, winning_tile=None, win_source=None)
    result = score_hand(inp)
    items = result.items
    assert result.points == sum(i.points for i in items)
    assert result.doubles == sum(i.doubles for i in items)
    limits = [i for i in items if i.limit]
    assert result.combination_doubles == sum(
        i.doubles for i in items if not i.bonus
    ) + sum(1 for i in limits if not i.bonus)
    if result.limit_hand is not None:
        assert max(i.limit for i in limits) > 0


class Prepared(NamedTuple):
    """What the scorer works out of a hand before it scores arrangements (engine internals)."""

    ruleset: RuleSet
    hand: CheckedHand
    arrangements: Arrangements  # the winner's; none for a player who did not win
    facts: HandFacts
    situation: Situation


def prepared(inp: HandInput) -> Prepared:
    rs = ruleset_of(inp)
    hand = check_input(inp, rs)
    arrs = _winner_arrangements(hand, rs, inp.winning_tile) if inp.mahjong else ([], [], [])
    facts, situation = _facts(inp, hand, rs, arrs)
    return Prepared(rs, hand, arrs, facts, Situation._make(situation))


@settings(max_examples=200)
@given(winning_hands())
def test_an_item_its_shape_decides_applies_exactly_when_the_shape_passes(inp: HandInput) -> None:
    """Items marked one_hit by their shape gate (patterns.shaped(..., decides=True)) are
    counted without calling them; called, they must answer one occurrence exactly then."""
    rs, hand, arrs, facts, _ = prepared(inp)
    decided = [(r.when, r.when.shape_gate) for r in rs.rules
               if r.when.one_hit and r.when.shape_gate is not None]
    assert decided  # every rule set has some
    for view, _left in _winner_views(facts, hand, arrs):
        shape = Shape(*view.shape)
        for pattern, gate in decided:
            hits = pattern(view)
            assert len(hits) == (1 if gate(shape) else 0)


@given(winning_hands())
def test_the_waits_before_the_win_are_counted_as_waits_counts_them(inp: HandInput) -> None:
    """The scorer counts the winner's waits on its own quick path (the arrangements, then the
    parts less the winning tile); single-wait items depend on it agreeing with waits()."""
    for name in ("swedish", "dmjl"):  # the rule sets with a single-wait item
        inp = replace(inp, ruleset=name)
        rs, _, _, facts, situation = prepared(inp)
        rest = list(inp.hand)
        rest.remove(str(inp.winning_tile))
        expected = min(2, len(waits(rest, inp.melds, rs)))
        assert min(2, facts.waits_before) == expected
        assert situation.single_wait == (expected == 1)
