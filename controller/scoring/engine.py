"""The scorer: arranges a hand every way it can be, applies a rule set's items to each and
keeps the best (RULES.md section 5). Every arrangement is scored in plain numbers; only the
best one is explained item by item (tally.py)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from operator import attrgetter
from typing import Any

from controller.scoring import arrange as ar
from controller.scoring import tally, validate
from controller.scoring.arrange import Group
from controller.scoring.complete import (
    arrangements,
    is_complete,
    waits,
)
from controller.scoring.mcr import score_mcr
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
from controller.scoring.view import HandFacts, HandView, Situation
from controller.tiles import KIND_INDEX, KINDS, Tile, sort_tiles

__all__ = ["arrangements", "clear_caches", "is_complete", "score_hand", "waits"]

# Sources after which the set the winning tile completes counts as exposed.
_TAKEN = ("discard", "robbed_kong")


def ruleset_of(inp: HandInput) -> RuleSet:
    if isinstance(inp.ruleset, RuleSet):
        return inp.ruleset
    return get_ruleset(inp.ruleset, inp.options)


def score_hand(inp: HandInput) -> ScoreResult:
    """Score one player's hand in its best arrangement; ScoringError names what is wrong."""
    rs = ruleset_of(inp)
    if rs.name == "mcr":  # fans, not points: its own scorer (controller.scoring.mcr)
        return score_mcr(inp, rs)
    hand = check_input(inp, rs)
    arrs = _winner_arrangements(hand, rs) if inp.mahjong else _NONE
    facts, situation = _facts(inp, hand, rs, arrs)
    split = split_rules(rs, inp.mahjong, situation)
    views = _winner_views(facts, hand, arrs) if inp.mahjong else _partial_views(facts, hand)
    if not views:
        raise ScoringError(_incomplete_message(hand))
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
    for g in view.groups:
        n = (memo.get(g) or group_entry(split, memo, view.facts, g))[0]
        if n is ZERO:
            continue
        points += n[0]
        doubles += n[1]
        combination += n[2]
        if n[3] > limit:
            limit, key = n[3], n[4]
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


def _incomplete_message(hand: CheckedHand) -> str:
    return (
        f"the winner's hand {' '.join(sort_tiles(hand.hand))} is not complete: it does not "
        "split into sets and a pair (or a special hand of the rule set)"
    )


_SUITS = {
    (b, c, d): frozenset(s for s, present in zip("bcd", (b, c, d), strict=True) if present)
    for b in (False, True) for c in (False, True) for d in (False, True)
}
_NO_FLAGS: frozenset[str] = frozenset()
_new = tuple.__new__


#: a winner's complete arrangements: the standard ones (groups), then the special hands
#: (groups, name of the special hand)
Arrangements = tuple[list[tuple[Group, ...]], list[tuple[Sequence[Group], str]]]
_NONE: Arrangements = ([], [])


def _facts(
    inp: HandInput, hand: CheckedHand, rs: RuleSet, arrs: Arrangements
) -> tuple[HandFacts, Situation]:
    """The hand's facts and its situation, computed together (this runs for every hand)."""
    c = hand.counts
    melds = hand.melds
    waits_before = 0
    if inp.mahjong and rs.needs_waits:
        k = KIND_INDEX[inp.winning_tile]  # type: ignore[index]  # checked: a tile of the hand
        waits_before = 2 if _two_waits_seen(arrs, k, c) else _waits_before(hand, k, rs)
    ones_nines = c[0] + c[8] + c[9] + c[17] + c[18] + c[26]
    dragons = c[31] + c[32] + c[33]
    winds = c[27] + c[28] + c[29] + c[30]
    majors = ones_nines + dragons + winds
    size = sum(c)
    suits = _SUITS[any(c[0:9]), any(c[9:18]), any(c[18:27])]  # melds too: not hand.parts
    exposed = False
    for m in melds:
        if not m.concealed:
            exposed = True
            break
    bonus = tuple(sort_tiles(hand.bonus)) if hand.bonus else ()
    flags = frozenset(inp.flags) if inp.flags else _NO_FLAGS
    last_tile, first_discard = bool(inp.last_tile), bool(inp.first_discard)
    facts = _new(HandFacts, (  # HandFacts(...) without the keyword-handling call
        hand.hand, hand.groups, bonus, hand.seat, hand.prevailing, inp.mahjong, inp.winning_tile,
        inp.win_source, last_tile, first_discard, flags, waits_before, suits, majors > ones_nines,
        exposed, majors, ones_nines, size,
    ))
    situation = _new(Situation, (  # in field order
        inp.win_source if inp.mahjong else None, bool(bonus), last_tile, first_discard, flags,
        hand.seat == "ew", bool(melds), exposed, suits, majors > ones_nines, majors == 0,
        majors == size, ones_nines == size,
        c[1] + c[2] + c[3] + c[5] + c[7] + c[32] == size,  # green only: 2b 3b 4b 6b 8b gd
        dragons, winds, waits_before == 1, waits_before >= 2,
    ))
    return facts, situation


def _two_waits_seen(arrs: Arrangements, k: int, held: Sequence[int]) -> bool:
    """True if an arrangement shows that the 13 tiles before the winning tile (kind ``k``)
    waited on two kinds or more, as waits() counts them: a chow completed at one end is
    completed at its other end too (4-5 + 3 or 6), and a pung completed beside a pair is
    completed by that pair's kind too (the pung becomes the pair), if that other kind was not
    all held (``held``: the hand with the winning tile). The winning tile's kind is always a
    wait: the 13 tiles held three of it at most. Most hands show two, so they need no waits
    count; the rest are counted."""
    wt = KINDS[k]
    for groups in arrs[0]:
        for g in groups:
            kind, tiles = g[0], g[1]
            if wt not in tiles:
                continue
            if kind == "chow":
                low = KIND_INDEX[tiles[0]]
                rank = low % 9  # 0 for a 1
                if (k == low and rank <= 5 and held[low + 3] < 4) or (
                    k == low + 2 and rank >= 1 and held[low - 1] < 4
                ):
                    return True
            elif kind == "pung":
                for p in groups:
                    if p[0] == "pair" and held[KIND_INDEX[p[1][0]]] < 4:
                        return True
    return False


def _waits_before(hand: CheckedHand, k: int, rs: RuleSet) -> int:
    """How many kinds the 13 tiles before the winning tile (kind ``k``) waited on; only the
    winning tile's part differs from the hand's parts."""
    i, off = divmod(k, 9) if k < 27 else (3, k - 27)  # the part and the place in it
    parts = list(hand.parts)
    part = parts[i]
    parts[i] = (*part[:off], part[off] - 1, *part[off + 1 :])
    kinds = ar.waits_of_parts((parts[0], parts[1], parts[2], parts[3]))
    specials = rs.specials
    # a seven-pairs wait is six pairs and a single: with the winning tile, five pairs at least
    if specials and not hand.melds and (
        "thirteen_orphans" in specials or hand.concealed_counts.count(2) >= 5
    ):
        rest = hand.concealed_counts.copy()
        rest[k] -= 1
        more = ar.special_waits(rest, specials)
        if more:
            kinds = sorted(set(kinds) | more)
    held = hand.counts  # includes the winning tile, which the 13 tiles did not hold yet
    n = 0
    for kind in kinds:
        if held[kind] - (kind == k) < 4:  # as waits() counts them: a fourth copy was left
            n += 1
    return n


# The won variant of a concealed group, when the winning tile was drawn / taken.
_WON: tuple[dict[Group, Group], dict[Group, Group]] = ({}, {})


def _winner_arrangements(hand: CheckedHand, rs: RuleSet) -> Arrangements:
    """Every complete arrangement of the concealed tiles: the standard ones, then the special
    hands of the rule set."""
    standard = ar.arrangements_of_parts(hand.parts)
    specials = rs.specials
    if not specials or hand.melds:
        return standard, []
    special: list[tuple[Sequence[Group], str]] = []
    c = hand.concealed_counts
    if "seven_pairs" in specials and ar.is_seven_pairs(c):
        special.append((ar.seven_pairs_groups(c), "seven_pairs"))
    if "thirteen_orphans" in specials and ar.is_thirteen_orphans(c):
        special.append(([ar.thirteen_orphans_group(c)], "thirteen_orphans"))
    return standard, special


def _winner_views(
    facts: HandFacts, hand: CheckedHand, arrs: Arrangements
) -> list[tuple[HandView, list[Tile]]]:
    """Every complete arrangement, with every choice of the group the winning tile completed."""
    wt = facts.winning_tile
    taken = facts.win_source in _TAKEN
    won_of = _WON[taken]
    melds = hand.groups
    out: list[tuple[HandView, list[Tile]]] = []
    for groups in arrs[0]:
        _add_views(out, facts, melds, groups, None, wt, won_of, taken)
    for special_groups, special in arrs[1]:
        _add_views(out, facts, melds, special_groups, special, wt, won_of, taken)
    return out


def _add_views(
    out: list[tuple[HandView, list[Tile]]], facts: HandFacts, melds: tuple[Group, ...],
    groups: Sequence[Group], special: str | None, wt: Tile | None, won_of: dict[Group, Group],
    taken: bool,
) -> None:
    """One view per distinct group of ``groups`` that the winning tile can have completed."""
    seen: list[Group] = []
    for i, g in enumerate(groups):
        if wt not in g[1] or g in seen:  # groups here differ only by kind and tiles
            continue
        seen.append(g)
        won = won_of.get(g)
        if won is None:
            won = won_of[g] = Group(g.kind, g.tiles, g.concealed and not taken, g.melded, True)
        view = HandView(facts, (*melds, *groups[:i], won, *groups[i + 1 :]), special, won)
        out.append((view, []))


def _partial_views(facts: HandFacts, hand: CheckedHand) -> list[tuple[HandView, list[Tile]]]:
    melds = hand.groups
    return [
        (HandView(facts, (*melds, *groups), None), left)
        for groups, left in ar.partial_arrangements(hand.concealed_counts)
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
