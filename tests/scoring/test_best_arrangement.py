"""The scorer's answer is the best one there is: checked against a plain enumeration of every
way to split the concealed tiles (independent of arrange.py's per-suit splits and pruning),
each scored by the engine's own numbers (hypothesis)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.scoring import HandInput, score_hand
from controller.scoring.arrange import Group
from controller.scoring.engine import _numbers
from controller.scoring.tally import ZERO, group_memo, run_numbers, score_of, split_rules
from controller.scoring.view import HandView
from controller.tiles import KINDS
from tests.scoring.test_properties import prepared, winning_hands


def _splits(
    c: list[int], start: int = 0, has_pair: bool = False, pairs: bool = False
) -> Iterator[list[Group]]:
    """Every multiset of concealed groups (sets and at most one pair; ``pairs``: any number)
    within counts ``c``."""
    yield []
    for k in range(start, 34):
        if not c[k]:
            continue
        t = KINDS[k]
        options: list[tuple[Group, tuple[int, ...], bool]] = []
        if c[k] >= 3:
            options.append((Group("pung", (t, t, t), True), (k, k, k), False))
        if c[k] >= 2 and (pairs or not has_pair):
            options.append((Group("pair", (t, t), True), (k, k), True))
        if k < 27 and k % 9 <= 6 and c[k + 1] and c[k + 2]:
            options.append((Group("chow", (t, KINDS[k + 1], KINDS[k + 2]), True),
                            (k, k + 1, k + 2), False))
        for group, used, pair in options:
            for i in used:
                c[i] -= 1
            for rest in _splits(c, k, has_pair or pair, pairs):
                yield [group, *rest]
            for i in used:
                c[i] += 1


def _best_by_enumeration(inp: HandInput) -> int:
    rs, hand, arrs, facts, situation = prepared(inp)
    taken = inp.win_source in ("discard", "robbed_kong")  # the completed group is exposed

    def won(g: Group) -> Group:
        return g._replace(concealed=g.concealed and not taken, won=True)

    split = split_rules(rs, inp.mahjong, situation)
    memo = group_memo(rs, inp.mahjong, facts)
    views: list[HandView] = []
    size = len(hand.hand)
    # a non-winner's pairs all score in dmjl and bmja (RuleSetSpec.loser_pairs)
    many = not inp.mahjong and rs.spec.loser_pairs
    for groups in _splits(list(hand.concealed_counts), pairs=many):
        if not inp.mahjong:
            views.append(HandView(facts, (*hand.groups, *groups), None))
            continue
        if sum(len(g.tiles) for g in groups) != size or sum(g.kind == "pair" for g in groups) != 1:
            continue  # a winner uses every tile: four sets and a pair
        for i, g in enumerate(groups):  # every choice of the group the winning tile completed
            if inp.winning_tile in g.tiles:
                views.append(HandView(facts, (*hand.groups, *groups[:i], won(g),
                                              *groups[i + 1:]), None))
    for special_groups, name in arrs[1]:  # seven pairs / thirteen orphans, as the rule set has
        for g in special_groups:
            if inp.winning_tile in g.tiles:
                rest = [x for x in special_groups if x is not g]
                views.append(HandView(facts, (*rest, won(g)), name))
                break
    best = None
    for view in views:
        hand_numbers = split.hand_numbers
        if hand_numbers is None:
            hand_numbers = run_numbers(split.hand, view, ZERO)
        score = score_of(split, _numbers(split, view, hand_numbers, memo))[0]
        best = score if best is None else max(best, score)
    assert best is not None
    return best


@st.composite
def ambiguous_hands(draw: st.DrawFn) -> HandInput:
    """Hands with several splits: a run like 1b1b1b2b2b2b3b3b3b (three pungs or three chows),
    a pung and a pair of other kinds, the winning tile anywhere."""
    base = draw(winning_hands())
    suit = draw(st.sampled_from("bcd"))
    low = draw(st.integers(1, 7))
    kinds = [f"{low + i}{suit}" for i in range(3)]
    run = [t for t in kinds for _ in range(3)]
    others = [t for t in KINDS if t not in kinds]
    pung, pair = draw(st.lists(st.sampled_from(others), min_size=2, max_size=2, unique=True))
    hand = draw(st.permutations([*run, pung, pung, pung, pair, pair]))
    return replace(base, melds=[], hand=hand, winning_tile=draw(st.sampled_from(hand)))


@settings(max_examples=150)
@given(st.one_of(winning_hands(), ambiguous_hands()))
def test_a_winners_score_is_the_best_of_every_split_and_winning_tile_place(
    inp: HandInput,
) -> None:
    assert score_hand(inp).score == _best_by_enumeration(inp)


@settings(max_examples=150)
@given(st.one_of(winning_hands(), ambiguous_hands()), st.data())
def test_a_losers_score_is_the_best_of_every_partial_split(
    inp: HandInput, data: st.DataObject
) -> None:
    """The scorer tries only splits whose leftovers make no further set; none scores better."""
    hand = list(inp.hand)
    for _ in range(data.draw(st.integers(1, min(4, len(hand))))):
        hand.remove(data.draw(st.sampled_from(hand)))
    loser = replace(inp, hand=hand, mahjong=False, winning_tile=None, win_source=None)
    assert score_hand(loser).score == _best_by_enumeration(loser)
