"""The mcr scorer: every shape the winner's hand takes, each scored with the exclusions applied,
the best one kept (RULES.md section 10). Flowers are added apart, after the best is chosen."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from controller.scoring.mcr import fans as f
from controller.scoring.mcr import special
from controller.scoring.mcr.fans import Hit, apply_exclusions
from controller.scoring.mcr.hand import Hand, Set, splits
from controller.scoring.mcr.inputs import prepare, quick_hand
from controller.scoring.mcr.result import FanScore
from controller.scoring.mcr.sets import CHOW_TABLE, PUNG_TABLE
from controller.scoring.mcr.standard import standard_hits
from controller.scoring.model import HandInput, ScoreItem, ScoreResult, ScoringError
from controller.scoring.rules import RuleSet
from controller.scoring.validate import check_input
from controller.tiles import BONUS_CODES, KINDS, sort_tiles

Scored = tuple[int, list[Hit], list[list[str]]]


#: results of hands already scored, by their whole input (the game scores one hand several
#: times around a Mahjong call: the claim, the declaration, the end of the hand)
_MEMO: dict[tuple[Any, ...], tuple[int, tuple[ScoreItem, ...], tuple[tuple[str, ...], ...],
                                    str | None]] = {}
Found = tuple[int, list[ScoreItem], list[list[str]], str | None]
_MEMO_SIZE = 4096


def clear_caches(tables: bool = True) -> None:
    """Empty mcr's caches keyed by a whole hand (scored hands, splits of a hand's concealed
    tiles); with ``tables``, the tables filled as hands come too (the combinations of chows and
    pungs). For benchmarks; scores never depend on them."""
    _MEMO.clear()
    splits.cache_clear()
    if tables:
        CHOW_TABLE.clear()
        PUNG_TABLE.clear()


def score_mcr(inp: HandInput, rs: RuleSet) -> ScoreResult:
    """Score a hand under mcr: the winner's fans; a player who did not win scores 0."""
    try:
        key: tuple[Any, ...] | None = (
            rs.cache_key, inp.seat_wind, inp.prevailing_wind,
            tuple([(tuple(m.tiles), bool(m.concealed)) for m in inp.melds]), tuple(inp.hand),
            tuple(inp.bonus), inp.mahjong, inp.winning_tile, inp.win_source,
            bool(inp.last_tile), tuple(inp.flags))
        found = _MEMO.get(key)  # type: ignore[arg-type]
    except TypeError:  # unhashable values: the checks name them
        key, found = None, None
    if found is not None:
        points, kept, groups, shape = found
        return FanScore(points, 0, None, points, list(kept), [list(g) for g in groups],
                        special=shape)
    hand = quick_hand(inp, rs)
    if hand is None:  # something looks off, or no win: the full checks name any problem
        checked = check_input(inp, rs)
        if not inp.mahjong:
            return ScoreResult(0, 0, None, 0, leftover=list(checked.hand))
        hand = prepare(inp, checked)
    total, items, arrangement, special = _score(hand, inp.hand, inp.bonus)
    if key is not None:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        _MEMO[key] = (total, tuple(items), tuple(map(tuple, arrangement)), special)
    return FanScore(total, 0, None, total, items, arrangement, special=special)


_BONUS_ORDER = {t: i for i, t in enumerate(BONUS_CODES)}  # sort_tiles' order, by a look-up


def _score(prepared: Hand, rack: Sequence[str], bonus: Sequence[str]) -> Found:
    """The fans of the best shape with the flowers: (total, items, arrangement, special)."""
    best = best_shape(prepared)
    if best is None:
        raise ScoringError(
            f"the winner's hand {' '.join(sort_tiles(rack))} is not complete: it is no "
            "standard hand, seven pairs, seven shifted pairs, thirteen orphans, honours and "
            "knitted tiles, nor a knitted straight with a set and a pair"
        )
    total, hits, arrangement = best
    value, new = f.VALUE, tuple.__new__
    # ScoreItem(name, tiles, value) with its defaults, without the call (a dozen per hand)
    items = [new(ScoreItem, (name, tiles, value[name], 0, 0.0, False)) for name, tiles in hits]
    if bonus:
        flowers = tuple(sorted(bonus, key=_BONUS_ORDER.__getitem__))
        items.append(ScoreItem(f.FLOWER_TILES, flowers, len(flowers)))
        total += len(flowers)
    return total, items, arrangement, _special(hits)


_SPECIALS = {f.SEVEN_SHIFTED_PAIRS: "seven_shifted_pairs", f.SEVEN_PAIRS: "seven_pairs",
             f.THIRTEEN_ORPHANS: "thirteen_orphans",
             f.GREATER_HONORS: "greater_honors_and_knitted_tiles",
             f.LESSER_HONORS: "lesser_honors_and_knitted_tiles",
             f.KNITTED_STRAIGHT: "knitted_straight", f.NINE_GATES: "nine_gates"}


def _special(hits: list[Hit]) -> str | None:
    """The special shape the hand was scored as (hits come biggest fan first)."""
    for name, _ in hits:
        key = _SPECIALS.get(name)
        if key is not None:
            return key
    return None


#: a shape's arrangement: as shown (a special hand), or its sets and pair (made into the
#: arrangement shown only if it is the best)
Arranged = list[list[str]] | tuple[list[Set], int]


def best_shape(hand: Hand) -> Scored | None:
    """The shape of the hand that scores the most fans (flowers apart), or None."""
    best: tuple[int, list[Hit], Arranged] | None = None
    value = f.VALUE
    for hits, arrangement in _shapes(hand):
        counted = apply_exclusions(hits)
        total = sum([value[name] for name, _ in counted]) if counted else _CHICKEN
        if best is None or total > best[0]:
            best = total, counted, arrangement
    if best is None:
        return None
    total, counted, arranged = best
    shown = _shown(*arranged) if isinstance(arranged, tuple) else arranged
    if not counted:
        counted = [(f.CHICKEN_HAND, tuple(t for g in shown for t in g))]
    return total, counted, shown


_CHICKEN = f.VALUE[f.CHICKEN_HAND]


def _shown(sets: list[Set], pair: int) -> list[list[str]]:
    return [list(s.tiles()) for s in sets] + [[KINDS[pair]] * 2]


def _shapes(hand: Hand) -> list[tuple[list[Hit], Arranged]]:
    out: list[tuple[list[Hit], Arranged]] = []
    if not hand.melds:
        nine = special.nine_gates(hand)
        if nine is not None:
            return [nine]
        for shape in (special.seven_pairs(hand), special.thirteen_orphans(hand),
                      special.honours_and_knitted(hand)):
            if shape is not None:
                out.append(shape)
    out += special.knitted_straight(hand)  # at most one meld, nine knitted kinds: its own test
    melds = list(hand.melds)
    for found, pair in splits(hand.concealed, 4 - len(melds)):
        sets = melds + list(found)
        out.append((standard_hits(hand, sets, pair), (sets, pair)))
    return out
