"""Applying a rule set's items to arrangements: plain numbers for every arrangement, the
explained items (ScoreItem) only for the best one.

Both paths walk the same compiled rules in the same order (arrangement items, hand items, then
each group's items) and keep the first highest limit, so the cheap pass ranks arrangements
exactly as the explained one scores them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, cast

from controller.scoring.arrange import Group
from controller.scoring.model import ScoreItem
from controller.scoring.rules import Hit, Rule, RuleSet, check_pattern
from controller.scoring.view import HandFacts, HandView, Shape, Situation, SituationKey
from controller.tiles import Tile

#: (points, doublings, combination doublings, limit in limits, limit hand's key)
Numbers = tuple[int, int, int, float, "str | None"]
ZERO: Numbers = (0, 0, 0, 0.0, None)


class Compiled(NamedTuple):
    """A rule with its value resolved against the rule set's options and its pattern's
    metadata read (rules.Pattern); the hot loops unpack it by position."""

    rule: Rule
    when: Callable[[HandView], Hit]  # the pattern's function
    points: int  # per occurrence
    doubles: int  # per occurrence
    combination: int  # combination doublings per occurrence (0 for a bonus doubling)
    limit: float  # value in limits after limit_hands (0 for an ordinary item)
    limit_combination: int  # a non-bonus limit item counts as one combination doubling
    item: tuple[str, int, int, float, bool]  # ScoreItem's fields but the tiles
    one_hit: bool  # the pattern always answers one occurrence (see gate_decides)
    test: Callable[[HandView], bool] | None  # one occurrence when it passes (hand_if)
    # (the gates and scope are read from rule.when where the rules are split per situation and
    # shape, once each: the hot loops unpack these ten fields only)


#: a compiled rule as a plain tuple, Compiled's fields in its order: unpacking a plain tuple is
#: a few machine instructions on CPython 3.11, unpacking a NamedTuple (a tuple subclass) goes
#: through an iterator; the arrangement rules per shape (Split.view_rules) are kept as rows
Row = tuple[Rule, Callable[[HandView], Hit], int, int, int, float, int,
            tuple[str, int, int, float, bool], bool, "Callable[[HandView], bool] | None"]


def compile_rule(rs: RuleSet, rule: Rule) -> Compiled:
    """A rule's value and its pattern's metadata, read once; a rule whose pattern was not made
    by the pattern helpers, or a per-group item with a gate, is an error here."""
    p = check_pattern(rs.name, rule)  # the group memo relies on ungated group items
    meta = (p.one_hit, p.test)
    if rule.limit:
        value = rs.limit_value(rule)
        return Compiled(rule, p.fn, 0, 0, 0, value, 0 if rule.bonus else 1,
                        (rule.name, 0, 0, value, rule.bonus), *meta)
    pts = rs.options[rule.points] if isinstance(rule.points, str) else rule.points
    return Compiled(rule, p.fn, pts, rule.doubles, 0 if rule.bonus else rule.doubles, 0.0, 0,
                    (rule.name, pts, rule.doubles, 0.0, rule.bonus), *meta)


_new = tuple.__new__


@dataclass(slots=True)
class Tally:
    """Items and sums for a hand or part of one."""

    items: list[ScoreItem]
    points: int = 0
    doubles: int = 0
    combination: int = 0
    limit: float = 0.0
    limit_key: str | None = None

    def numbers(self) -> Numbers:
        return (self.points, self.doubles, self.combination, self.limit, self.limit_key)


def run(rule_lists: Sequence[Sequence[Row]], view: HandView) -> Tally:
    """The explained items of the rules on one view, list after list."""
    items: list[ScoreItem] = []
    append = items.append
    points = doubles = combination = 0
    limit = 0.0
    key: str | None = None
    for rules in rule_lists:
        for rule, when, _, _, comb, _, lim_comb, item, _, _ in rules:
            hits = when(view)
            if hits:
                name, pts, dbl, lim, bonus = item
                for t in hits:  # ScoreItem(name, t, pts, dbl, lim, bonus), built directly
                    append(_new(ScoreItem, (name, t, pts, dbl, lim, bonus)))
                if lim:
                    combination += lim_comb
                    if lim > limit:
                        limit, key = lim, rule.key
                else:
                    n = len(hits)
                    points += pts * n
                    doubles += dbl * n
                    combination += comb * n
    return Tally(items, points, doubles, combination, limit, key)


def run_numbers(rules: Sequence[Row], view: HandView, then: Numbers) -> Numbers:
    """The numbers of ``rules`` on one view, followed by ``then``."""
    points = doubles = combination = 0
    limit = 0.0
    key: str | None = None
    # the fields by unpacking: much cheaper than a NamedTuple's attributes in this loop
    for rule, when, pts, dbl, comb, lim, lim_comb, _, one_hit, test in rules:
        if one_hit:  # no need to make its tiles
            n = 1
        elif test is not None:
            if not test(view):
                continue
            n = 1
        else:
            hits = when(view)
            if not hits:
                continue
            n = len(hits)
        if lim:
            if lim > limit:
                limit, key = lim, rule.key
            combination += lim_comb
        else:
            points += pts * n
            doubles += dbl * n
            combination += comb * n
    if then[3] > limit:
        limit, key = then[3], then[4]
    return points + then[0], doubles + then[1], combination + then[2], limit, key


@dataclass(frozen=True, slots=True)
class Split:
    """The rules worth trying for one player in one situation, by how much of the hand their
    pattern looks at, with the rule set's limit and cap."""

    group: tuple[Compiled, ...]
    hand: tuple[Compiled, ...]
    view: tuple[Compiled, ...]
    limit: int
    cap: int | None
    by_shape: dict[tuple[object, ...], tuple[Row, ...]]  # view rules per Shape, as rows
    #: the numbers of the hand rules when every one is decided by its gate (one_hit), as in
    #: the common case: they are then the same for every hand of this split; else None
    hand_numbers: Numbers | None = None

    def view_rules(self, view: HandView) -> tuple[Row, ...]:
        """The arrangement rules worth trying on ``view`` (their shape gates pass), as rows."""
        rules = self.by_shape.get(view.shape)
        if rules is None:
            shape = Shape(*view.shape)
            rules = self.by_shape[view.shape] = tuple(
                c[:] for c in self.view if _shape_gate(c)(shape)
            )
        return rules


_SPLITS: dict[tuple[object, bool, SituationKey], Split] = {}


def split_rules(rs: RuleSet, is_winner: bool, situation: SituationKey) -> Split:
    """The rules worth trying for this player in this situation (their gates pass): a
    Situation, or its fields as a plain tuple (engine._facts). Situations take few values:
    kept per rule set and options."""
    key = (rs.cache_key, is_winner, situation)
    split = _SPLITS.get(key)
    if split is None:
        sit = Situation._make(situation)
        rules = [
            c for c in _compiled(rs)
            if (is_winner or not c.rule.winner_only)
            and (c.rule.when.gate or _always)(sit)
        ]
        by = {s: tuple(c for c in rules if c.rule.when.scope == s)
              for s in ("group", "hand", "view")}
        hand = by["hand"]
        # one_hit rules are counted without looking at a view
        fixed = (run_numbers(hand, cast(HandView, None), ZERO) if all(c.one_hit for c in hand)
                 else None)
        split = _SPLITS[key] = Split(by["group"], hand, by["view"], rs.limit, rs.cap, {}, fixed)
    return split


_COMPILED: dict[tuple[str, str], tuple[Compiled, ...]] = {}


def _compiled(rs: RuleSet) -> tuple[Compiled, ...]:
    """The rule set's rules compiled once per options, less the limit items ``limit_hands``
    switches off."""
    rules = _COMPILED.get(rs.cache_key)
    if rules is None:
        rules = _COMPILED[rs.cache_key] = tuple(
            c for c in (compile_rule(rs, r) for r in rs.rules) if c.limit > 0 or not c.rule.limit
        )
    return rules


def _always(situation: object) -> bool:
    return True


def _shape_gate(c: Compiled) -> Callable[[Shape], bool]:
    return c.rule.when.shape_gate or _always


# What a group earns depends only on the group and the two winds (group items are never gated:
# _compiled refuses it), so it is computed once and kept per rule set and options, player kind
# and winds: the domain is small (kinds x shapes x exposure). A memo is two dictionaries: each
# group's numbers (what every view sums) and its items (what the explanation lists). A group's
# numbers are kept as (points, the rest or None): most groups earn points only (a pung) or
# nothing (a chow), and a view then adds one number for them.
GroupRest = tuple[int, int, float, "str | None"]  # doublings, combination, limit, its key
GroupNumbers = tuple[int, "GroupRest | None"]
GroupMemo = tuple[dict[Group, GroupNumbers], dict[Group, tuple[ScoreItem, ...]]]
_GROUP_MEMO: dict[tuple[tuple[str, str], bool, Tile, Tile], GroupMemo] = {}


def group_memo(rs: RuleSet, is_winner: bool, facts: HandFacts) -> GroupMemo:
    key = (rs.cache_key, is_winner, facts.seat, facts.prevailing)
    memo = _GROUP_MEMO.get(key)
    if memo is None:
        memo = _GROUP_MEMO[key] = ({}, {})
    return memo


def group_entry(split: Split, memo: GroupMemo, facts: HandFacts, g: Group) -> GroupNumbers:
    """Group ``g``'s numbers, its numbers and items computed and kept in ``memo`` first."""
    tally = run((split.group,), HandView(facts, (g,), None))
    memo[1][g] = tuple(tally.items)
    points, doubles, combination, limit, key = tally.numbers()
    rest = (doubles, combination, limit, key) if doubles or combination or limit else None
    numbers = memo[0][g] = (points, rest)
    return numbers


def score_of(split: Split, n: Numbers) -> tuple[int, str | None]:
    """The score of numbers ``n`` and the limit hand that counts, if one does."""
    points, doubles = n[0], n[1]
    score = points << doubles if doubles >= 0 else points
    if split.cap is not None and score > split.cap:
        score = split.cap
    if n[3]:
        limit_score = round(n[3] * split.limit)
        if limit_score >= score:
            return limit_score, n[4]
    return score, None


def explain(split: Split, view: HandView, memo: GroupMemo, hand: Tally | None = None) -> Tally:
    """The explained items of one view: its own, the hand's (``hand``: made already), then
    each group's (as run_numbers and the engine count them, in the same order)."""
    rule_lists = (split.view_rules(view), split.hand) if hand is None else (split.view_rules(view),)
    tally = run(rule_lists, view)
    items = tally.items
    if hand is not None and hand.items:
        items.extend(hand.items)
        tally.points += hand.points
        tally.doubles += hand.doubles
        tally.combination += hand.combination
        if hand.limit > tally.limit:
            tally.limit, tally.limit_key = hand.limit, hand.limit_key
    facts = view.facts
    numbers, listed = memo
    for g in view.groups:
        p, rest = numbers.get(g) or group_entry(split, memo, facts, g)
        d, comb, lim, k = rest or (0, 0, 0.0, None)
        more = listed[g]
        if more:
            items.extend(more)
            tally.points += p
            tally.doubles += d
            tally.combination += comb
            if lim > tally.limit:
                tally.limit, tally.limit_key = lim, k
    return tally
