"""The scorer: arranges a hand every way it can be, applies a rule set's items to each and
keeps the best (RULES.md section 5). Every arrangement is scored in plain numbers; only the
best one is explained item by item (tally.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from operator import attrgetter
from typing import Any

from controller.scoring import arrange as ar
from controller.scoring import tally, validate
from controller.scoring.arrange import Group
from controller.scoring.complete import (
    arrangements,
    free_chows,
    is_complete,
    waits,
    within_chows,
)
from controller.scoring.model import HandInput, ScoreItem, ScoreResult, ScoringError
from controller.scoring.rules import RuleSet
from controller.scoring.rulesets import get_ruleset
from controller.scoring.tally import (
    ZERO,
    GroupMemo,
    Numbers,
    Split,
    explain,
    group_entry,
    group_memo,
    run_numbers,
    score_of,
    split_rules,
)
from controller.scoring.validate import CheckedHand, check_input
from controller.scoring.view import HandFacts, HandView, SituationKey
from controller.scoring.waits_before import count_waits_before, two_waits_seen
from controller.tiles import (
    DRAGON_INDICES,
    GREEN_INDICES,
    KIND_INDEX,
    PART_SLICES,
    SUITS,
    TERMINAL_INDICES,
    WIND_INDICES,
    Tile,
    sort_tiles,
)

__all__ = ["arrangements", "clear_caches", "is_complete", "score_hand", "waits"]

# Sources after which the set the winning tile completes counts as exposed.
_TAKEN = ("discard", "robbed_kong")


def ruleset_of(inp: HandInput) -> RuleSet:
    if isinstance(inp.ruleset, RuleSet):
        return inp.ruleset
    return get_ruleset(inp.ruleset, inp.options)


def score_hand(inp: HandInput) -> ScoreResult:
    """Score one player's hand in its best arrangement; ScoringError names what is wrong."""
    rs = inp.ruleset  # ruleset_of(inp), without the call
    if not isinstance(rs, RuleSet):
        rs = get_ruleset(rs, inp.options)
    if rs.name == "mcr":  # fans, not points: its own scorer, loaded when first needed
        from controller.scoring.mcr.scorer import score_mcr

        return score_mcr(inp, rs)
    if rs.name == "riichi":  # han and fu: its own scorer, loaded when first needed
        from controller.scoring.riichi import score_riichi

        return score_riichi(inp, rs)
    hand = check_input(inp, rs)
    arrs = _winner_arrangements(hand, rs, inp.winning_tile) if inp.mahjong else _NONE
    facts, situation = _facts(inp, hand, rs, arrs)
    split = split_rules(rs, inp.mahjong, situation)
    views = (_winner_views(facts, hand, arrs) if inp.mahjong
             else _partial_views(facts, hand, rs.spec.loser_pairs))
    if not views:
        raise ScoringError(_incomplete_message(hand, rs))
    memo = group_memo(rs, inp.mahjong, facts)
    hand_numbers = split.hand_numbers  # the same for every view
    if hand_numbers is None:
        hand_numbers = run_numbers(split.hand, views[0][0], ZERO)
    if len(views) == 1:
        (best, best_left), numbers = views[0], _numbers(split, views[0][0], hand_numbers, memo)
    else:
        best, best_left, numbers = _best(split, views, hand_numbers, memo)
    return _result(split, best, numbers, memo, best_left, hand)


def _numbers(split: Split, view: HandView, hand_numbers: Numbers, memo: GroupMemo) -> Numbers:
    """The numbers of one view (its own items, the hand's, then each group's), as explain()
    sums them."""
    rules = split.by_shape.get(view.shape)  # split.view_rules(view), without the call
    points, doubles, combination, limit, key = run_numbers(
        split.view_rules(view) if rules is None else rules, view, hand_numbers
    )
    known = memo[0].get  # each group's numbers: (points, the rest or None)
    for g in view.groups:
        n = known(g) or group_entry(split, memo, view.facts, g)
        points += n[0]
        rest = n[1]
        if rest is not None:  # doublings, combination doublings, a limit
            doubles += rest[0]
            combination += rest[1]
            if rest[2] > limit:
                limit, key = rest[2], rest[3]
    return points, doubles, combination, limit, key


def _best(
    split: Split, views: list[tuple[HandView, list[Tile]]], hand_numbers: Numbers, memo: GroupMemo
) -> tuple[HandView, list[Tile], Numbers]:
    """The best view by plain numbers: higher score, then more base points, then (a loser)
    fewer tiles left over, then the first found."""
    best: tuple[HandView, list[Tile], Numbers] | None = None
    best_rank: tuple[int, int, int] | None = None
    for view, leftover in views:
        numbers = _numbers(split, view, hand_numbers, memo)
        rank = (score_of(split, numbers)[0], numbers[0], -len(leftover))
        if best_rank is None or rank > best_rank:
            best, best_rank = (view, leftover, numbers), rank
    assert best is not None  # views is never empty
    return best


def _result(
    split: Split, view: HandView, numbers: Numbers, memo: GroupMemo, leftover: list[Tile],
    hand: CheckedHand,
) -> ScoreResult:
    """The numbers now; the explained items and the arrangement when first asked for."""
    score, limit_hand = score_of(split, numbers)
    return ScoreResult(numbers[0], numbers[1], limit_hand, score, None, None, numbers[2],
                       view.special, leftover, partial(_explained, split, view, memo, hand))


def _explained(
    split: Split, view: HandView, memo: GroupMemo, hand: CheckedHand
) -> tuple[list[ScoreItem], list[list[Tile]]]:
    """A score's explained items (points first) and its arrangement, when first asked for."""
    items = sorted(explain(split, view, memo).items, key=_POINTS_FIRST)
    return items, _arrangement(view.groups, hand)


def _incomplete_message(hand: CheckedHand, rs: RuleSet) -> str:
    if rs.max_chows is not None:
        splits = ar.arrangements_of_parts(hand.parts)
        if splits:  # complete but for the rule set's chow limit (bmja: one chow)
            exposed = rs.max_chows - (free_chows(rs, hand.melds) or 0)
            least = exposed + min(sum(1 for g in gs if g.kind == "chow") for gs in splits)
            allowed = "one chow" if rs.max_chows == 1 else f"{rs.max_chows} chows"
            return (f"the winner's hand {' '.join(sort_tiles(hand.hand))} is not complete "
                    f"in {rs.name}: it needs {least} chows, and {rs.name} allows {allowed}")
    return (
        f"the winner's hand {' '.join(sort_tiles(hand.hand))} is not complete: it does not "
        "split into sets and a pair (or a special hand of the rule set)"
    )


_SUITS = {
    (b, c, d): frozenset(s for s, present in zip(SUITS, (b, c, d), strict=True) if present)
    for b in (False, True) for c in (False, True) for d in (False, True)
}
_NO_FLAGS: frozenset[str] = frozenset()
_BAMBOO_ONLY = frozenset(SUITS[:1])  # the suits all-green hands can hold
_new = tuple.__new__
_BAMBOO, _CHARACTERS, _DOTS, _ = PART_SLICES
# _facts adds the counts of the named kinds of controller.tiles, unpacked here once: a module
# name costs next to nothing, sum(itemgetter(...)(c)) some 4,000 instructions a hand.
_T1, _T2, _T3, _T4, _T5, _T6 = TERMINAL_INDICES
_D1, _D2, _D3 = DRAGON_INDICES
_W1, _W2, _W3, _W4 = WIND_INDICES
_G1, _G2, _G3, _G4, _G5, _G6 = GREEN_INDICES


#: a winner's complete arrangements: the standard ones (groups), the special hands (groups,
#: name), and the winning tile's places in the standard ones, (groups, index) of each distinct
#: group it can have completed: found once for the waits (two_waits_seen) and the views
Arrangements = tuple[
    list[tuple[Group, ...]], list[tuple[Sequence[Group], str]], list[tuple[Sequence[Group], int]]
]
_NONE: Arrangements = ([], [], [])


def _facts(
    inp: HandInput, hand: CheckedHand, rs: RuleSet, arrs: Arrangements
) -> tuple[HandFacts, SituationKey]:
    """The hand's facts and its situation (Situation's fields as a plain tuple: split_rules
    makes the Situation when it is new), computed together: this runs for every hand."""
    seat, prevailing, melds, rack = hand.seat, hand.prevailing, hand.melds, hand.hand
    c = hand.counts  # rack and melds: not hand.parts
    bonus_tiles = hand.bonus
    mahjong = inp.mahjong
    waits_before = 0
    if mahjong and rs.needs_waits:
        k = KIND_INDEX[inp.winning_tile]  # type: ignore[index]  # checked: a tile of the hand
        waits_before = 2 if two_waits_seen(arrs[2], k, c) else count_waits_before(hand, k, rs)
    ones_nines = c[_T1] + c[_T2] + c[_T3] + c[_T4] + c[_T5] + c[_T6]
    dragons = c[_D1] + c[_D2] + c[_D3]
    winds = c[_W1] + c[_W2] + c[_W3] + c[_W4]
    majors = ones_nines + dragons + winds
    size = len(rack)  # sum(c), counted from the melds rather than over the 34 kinds
    exposed = False
    for m in melds:
        size += len(m.tiles)
        if not m.concealed:
            exposed = True
    suits = _SUITS[any(c[_BAMBOO]), any(c[_CHARACTERS]), any(c[_DOTS])]
    bonus = tuple(sort_tiles(bonus_tiles)) if bonus_tiles else ()
    flags = frozenset(inp.flags) if inp.flags else _NO_FLAGS
    # bool(x) as a conditional expression: the same value without a call
    last_tile = True if inp.last_tile else False
    first_discard = True if inp.first_discard else False
    calling = _calling(inp, hand, rs) if not mahjong and rs.needs_calling else _NO_FLAGS
    honours = majors > ones_nines
    # HandFacts and the situation by position, fields named one per line in view.py's order
    # (keywords would cost about 2 µs a hand); test_the_hands_facts_are_what_their_names_say
    facts = _new(HandFacts, (
        rack,
        hand.groups,  # melds
        bonus,
        seat,
        prevailing,
        mahjong,
        inp.winning_tile,  # winning_tile
        inp.win_source,  # win_source
        last_tile,
        first_discard,
        flags,
        waits_before,
        suits,
        honours,
        exposed,  # exposed_melds
        majors,
        ones_nines,
        size,
        calling,
    ))
    situation = (  # the Situation's fields as a plain tuple: all split_rules needs
        inp.win_source if mahjong else None,  # source
        True if bonus else False,  # bonus
        last_tile,
        first_discard,
        flags,
        seat == "ew",  # dealer
        True if melds else False,  # melds
        exposed,
        suits,
        honours,
        majors == 0,  # simples_only
        majors == size,  # majors_only
        ones_nines == size,  # ones_nines_only
        # green_only: counted only when no tile rules it out already (a dot, a character, a
        # wind: all tiles green means none of these)
        suits <= _BAMBOO_ONLY and not winds
        and c[_G1] + c[_G2] + c[_G3] + c[_G4] + c[_G5] + c[_G6] == size,
        dragons,
        winds,
        waits_before == 1,  # single_wait
        waits_before >= 2,  # multi_wait
        calling,
    )
    return facts, situation


def _calling(inp: HandInput, hand: CheckedHand, rs: RuleSet) -> frozenset[str]:
    """What a non-winner's full hand (13 tiles and one per kong) was calling for: for each
    kind that would complete it, drawn from the wall, the limit hand that would count (its
    key), else the names of the items that would apply (Kajongg's calling hands)."""
    out: set[str] = set()
    for k in waits(hand.hand, hand.melds, rs):
        won = replace(inp, ruleset=rs, hand=(*hand.hand, k), mahjong=True, winning_tile=k,
                      win_source="wall", last_tile=False, first_discard=False, flags=())
        result = score_hand(won)
        if result.limit_hand is not None:
            out.add(result.limit_hand)
        else:
            out.update(i.name for i in result.items)
    return frozenset(out)


# The won variant of a concealed group, when the winning tile was drawn / taken.
_WON: tuple[dict[Group, Group], dict[Group, Group]] = ({}, {})


def _winner_arrangements(hand: CheckedHand, rs: RuleSet, wt: Tile | None) -> Arrangements:
    """Every complete arrangement of the concealed tiles: the standard ones, the special hands
    of the rule set, and where winning tile ``wt`` sits in the standard ones."""
    standard = ar.arrangements_of_parts(hand.parts)
    if rs.max_chows is not None:
        free = free_chows(rs, hand.melds)
        standard = [groups for groups in standard if within_chows(groups, free)]
    places = _won_places(standard, wt)
    specials = rs.special_hands
    if not specials or hand.melds:
        return standard, [], places
    c = hand.concealed_counts
    special: list[tuple[Sequence[Group], str]] = []
    for h in specials:  # special.complete_special, without the comprehension's call
        if h.complete(c):
            special.append((h.groups(c), h.name))
    return standard, special, places


def _won_places(
    arrangements: Sequence[Sequence[Group]], wt: Tile | None
) -> list[tuple[Sequence[Group], int]]:
    """(groups, index) of each distinct group of each arrangement that holds ``wt``."""
    out: list[tuple[Sequence[Group], int]] = []
    for groups in arrangements:
        seen: list[Group] = []
        for i, g in enumerate(groups):
            if wt not in g[1] or g in seen:  # groups here differ only by kind and tiles
                continue
            seen.append(g)
            out.append((groups, i))
    return out


def _winner_views(
    facts: HandFacts, hand: CheckedHand, arrs: Arrangements
) -> list[tuple[HandView, list[Tile]]]:
    """Every complete arrangement, with every choice of the group the winning tile completed."""
    wt = facts.winning_tile
    taken = facts.win_source in _TAKEN
    won_of = _WON[taken]
    melds = hand.groups
    out: list[tuple[HandView, list[Tile]]] = []
    for groups, i in arrs[2]:  # the standard arrangements, by the winning tile's places
        out.append((_view(facts, melds, groups, i, None, won_of, taken), []))
    for special_groups, special in arrs[1]:
        for groups, i in _won_places([special_groups], wt):
            out.append((_view(facts, melds, groups, i, special, won_of, taken), []))
    return out


def _view(
    facts: HandFacts, melds: tuple[Group, ...], groups: Sequence[Group], i: int,
    special: str | None, won_of: dict[Group, Group], taken: bool,
) -> HandView:
    """The view of ``groups`` in which the winning tile completed ``groups[i]``."""
    g = groups[i]
    won = won_of.get(g)
    if won is None:
        won = won_of[g] = Group(g.kind, g.tiles, g.concealed and not taken, g.melded, True)
    view_groups = [*melds, *groups]  # (*melds, *groups[:i], won, *groups[i + 1:]),
    view_groups[len(melds) + i] = won  # without the two slices
    return HandView(facts, tuple(view_groups), special, won)


def _partial_views(
    facts: HandFacts, hand: CheckedHand, pairs: bool
) -> list[tuple[HandView, list[Tile]]]:
    """A non-winner's arrangements: sets and at most one pair (``pairs``: any number)."""
    melds = hand.groups
    return [
        (HandView(facts, (*melds, *groups), None), left)
        for groups, left in ar.partial_arrangements(hand.concealed_counts, pairs)
    ]


def _arrangement(groups: Sequence[Group], hand: CheckedHand) -> list[list[Tile]]:
    """Melds first as given, then concealed sets in the order their tiles were written, pairs
    last. The melds are the first groups of every view."""
    n = len(hand.groups)
    out = [[*g[1]] for g in groups[:n]]  # fields by position: kind, tiles, ...
    where = hand.hand.index
    # pairs after sets (a hand holds fewer than 100 tiles); ties keep their order
    rest = [(where(g[1][0]) + (100 if g[0] == "pair" else 0), i, g[1])
            for i, g in enumerate(groups[n:])]
    rest.sort()
    out.extend([[*r[2]] for r in rest])
    return out


# Items are listed points first, then doublings (a stable sort keeps the table's order within).
_POINTS_FIRST = attrgetter("doubles")


def clear_caches() -> None:
    """Empty every cache of the scorer (a benchmark's cold start; scores never depend on it)."""
    for f in (ar._complete_splits, ar._partial_splits, ar._part_groups, ar._splittable,
              ar._part_additions, validate.checked_group, validate._checked_meld,
              validate._meld_and_group):
        f.cache_clear()
    caches: list[dict[Any, Any]] = [*ar._GROUPS, *ar._SUMMARIES, *_WON, tally._SPLITS,
                                     tally._COMPILED, tally._GROUP_MEMO]
    for d in caches:
        d.clear()
