"""The mcr scorer: every shape the winner's hand takes, each scored with the exclusions applied,
the best one kept (RULES.md section 10). Flowers are added apart, after the best is chosen."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from controller.scoring.mcr import fans as f
from controller.scoring.mcr import special
from controller.scoring.mcr.fans import Hit, apply_exclusions
from controller.scoring.mcr.hand import CHOW, KONG, PUNG, Hand, Set, Win, splits
from controller.scoring.mcr.sets import CHOW_TABLE, PUNG_TABLE
from controller.scoring.mcr.standard import standard_hits
from controller.scoring.model import HandInput, ScoreItem, ScoreResult, ScoringError
from controller.scoring.rules import RuleSet
from controller.scoring.validate import CheckedHand, check_input
from controller.tiles import KIND_INDEX, KINDS, Meld, sort_tiles

_SELF_DRAWN = ("wall", "replacement", "dealt")

Scored = tuple[int, list[Hit], list[list[str]]]


class FanScore(ScoreResult):
    """An mcr score: its unit is fans (the dashboard and `score --hand` show them as MCR players
    read them: each fan with its value, the total, the flowers apart)."""

    __slots__ = ()
    unit = "fans"


#: results of hands already scored, by their whole input (the game scores one hand several
#: times around a Mahjong call: the claim, the declaration, the end of the hand)
_MEMO: dict[tuple[Any, ...], tuple[int, list[ScoreItem], list[list[str]], str | None]] = {}
_MEMO_SIZE = 4096


def clear_caches() -> None:
    """Empty mcr's caches: the scored hands and every table filled as hands come (a
    benchmark's cold start; scores never depend on them)."""
    _MEMO.clear()
    splits.cache_clear()
    CHOW_TABLE.clear()
    PUNG_TABLE.clear()


def score_mcr(inp: HandInput, rs: RuleSet) -> ScoreResult:
    """Score a hand under mcr: the winner's fans; a player who did not win scores 0."""
    try:
        key: tuple[Any, ...] | None = (
            rs.cache_key, inp.seat_wind, inp.prevailing_wind,
            tuple((tuple(m.tiles), bool(m.concealed)) for m in inp.melds), tuple(inp.hand),
            tuple(inp.bonus), inp.mahjong, inp.winning_tile, inp.win_source,
            bool(inp.last_tile), tuple(inp.flags))
        found = _MEMO.get(key)  # type: ignore[arg-type]
    except TypeError:  # unhashable values: the checks name them
        key, found = None, None
    if found is not None:
        total, items, arrangement, special = found
        return FanScore(total, 0, None, total, list(items), [list(g) for g in arrangement],
                        special=special)
    result = _score(inp, check_input(inp, rs))
    if key is not None and inp.mahjong:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        _MEMO[key] = (result.points, list(result.items),
                      [list(g) for g in result.arrangement], result.special)
    return result


def _score(inp: HandInput, hand: CheckedHand) -> ScoreResult:
    if not inp.mahjong:
        return ScoreResult(0, 0, None, 0, [], [], leftover=list(hand.hand))
    prepared = prepare(inp, hand)
    best = best_shape(prepared)
    if best is None:
        raise ScoringError(
            f"the winner's hand {' '.join(sort_tiles(hand.hand))} is not complete: it is no "
            "standard hand, seven pairs, seven shifted pairs, thirteen orphans, honours and "
            "knitted tiles, nor a knitted straight with a set and a pair"
        )
    total, hits, arrangement = best
    items = [ScoreItem(name, tiles, f.VALUE[name]) for name, tiles in hits]
    if hand.bonus:
        bonus = tuple(sort_tiles(hand.bonus))
        items.append(ScoreItem(f.FLOWER_TILES, bonus, len(bonus)))
        total += len(bonus)
    return FanScore(total, 0, None, total, items, arrangement, special=_special(hits))


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


def _set_of(m: Meld) -> Set:
    tiles = m.tiles
    k = KIND_INDEX[tiles[0]]
    if len(tiles) == 4:
        return Set(KONG, k, not m.concealed, True)
    if tiles[0] == tiles[1]:
        return Set(PUNG, k, True, True)
    return Set(CHOW, k, True, True)


def win_facts(inp: HandInput, concealed: Sequence[int], counts: Sequence[int],
              melds: Sequence[Set]) -> Win:
    """The facts of the win as they count. Last Tile: the ``last_of_kind`` flag, or the hand's
    own melds show the other three; not when the player holds another copy concealed. Out with
    Replacement Tile needs a kong on the table; Robbing the Kong a tile held nowhere else."""
    w = KIND_INDEX[inp.winning_tile]  # type: ignore[index]  # checked: a tile of the hand
    src = inp.win_source
    in_melds = counts[w] - concealed[w]
    last_of_kind = ("last_of_kind" in inp.flags and concealed[w] == 1) or (
        in_melds == 3 and concealed[w] == 1)
    has_kong = any(m.kind == KONG for m in melds)
    robbed = src == "robbed_kong" and concealed[w] == 1 and in_melds == 0
    return Win(w, src in _SELF_DRAWN, last_of_kind and not robbed,
               src == "replacement" and has_kong, robbed, bool(inp.last_tile))


def prepare(inp: HandInput, hand: CheckedHand) -> Hand:
    melds = tuple(_set_of(m) for m in hand.melds)
    concealed = tuple(hand.concealed_counts)
    counts = tuple(hand.counts)
    win = win_facts(inp, concealed, counts, melds)
    present = [k for k, n in enumerate(counts) if n]
    tiles: list[str] = []
    for k in present:
        tiles += _COPIES[counts[k]][k]
    return Hand(counts, concealed, melds, win, KIND_INDEX[hand.seat],
                KIND_INDEX[hand.prevailing], tuple(tiles), sum(1 << k for k in present), {})


#: _COPIES[n][k]: n tiles of kind k
_COPIES = tuple(tuple((t,) * n for t in KINDS) for n in range(5))


def _scored(hits: list[Hit], arrangement: list[list[str]]) -> Scored:
    counted = apply_exclusions(hits)
    if not counted:
        counted = [(f.CHICKEN_HAND, tuple(t for g in arrangement for t in g))]
    return sum(f.VALUE[h[0]] for h in counted), counted, arrangement


def best_shape(hand: Hand) -> Scored | None:
    """The shape of the hand that scores the most fans (flowers apart), or None."""
    best: Scored | None = None
    for hits, arrangement in _shapes(hand):
        scored = _scored(hits, arrangement)
        if best is None or scored[0] > best[0]:
            best = scored
    return best


def _shapes(hand: Hand) -> list[special.Shape]:
    out: list[special.Shape] = []
    if not hand.melds:
        nine = special.nine_gates(hand)
        if nine is not None:
            return [nine]
        for shape in (special.seven_pairs(hand), special.thirteen_orphans(hand),
                      special.honours_and_knitted(hand)):
            if shape is not None:
                out.append(shape)
    if len(hand.melds) <= 1 and hand.concealed[:27].count(0) <= 18:  # nine suited kinds
        out += special.knitted_straight(hand)
    melds = list(hand.melds)
    for found, pair in splits(hand.concealed, 4 - len(melds)):
        sets = melds + list(found)
        arrangement = [list(s.tiles()) for s in sets] + [[KINDS[pair]] * 2]
        out.append((standard_hits(hand, sets, pair), arrangement))
    return out
