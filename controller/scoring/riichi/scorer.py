"""The riichi scorer: every reading of the winner's hand valued (yakuman first, else the yaku,
dora and fu), the best kept: the highest score, then the most han, then the most fu (RULES.md
section 11). A hand that did not win scores 0 (riichi pays only the winner)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.scoring.arrange import _complete_splits
from controller.scoring.mcr.hand import SET_TILES
from controller.scoring.model import HandInput, ScoreItem, ScoreResult, ScoringError
from controller.scoring.riichi.features import features
from controller.scoring.riichi.fu import base_points, fu_of, hand_value, paid
from controller.scoring.riichi.inputs import RHand, _meld, prepare
from controller.scoring.riichi.readings import (
    ORPHANS,
    SEVEN_PAIRS,
    Reading,
    _part_splits,
    readings,
)
from controller.scoring.riichi.yaku import (
    RENHOU,
    Tiles,
    Yaku,
    Yakuman,
    _pinfu,
    candidates,
    clear_candidates,
)
from controller.scoring.rules import RuleSet
from controller.tiles import KINDS

#: each item found: its name, what makes its tiles, how many times it counts, its han each
Hits = list[tuple[str, Tiles, int, int]]
_NEW = tuple.__new__  # a ScoreItem made by position, without the call
#: the names of the dora lines of an explanation (the terms catalog lists them)
DORA, URA_DORA = DORA_ITEMS = ("dora", "ura dora")


class HanScore(ScoreResult):
    """A riichi score: ``doubles`` the han, ``points`` the fu, ``score`` what the hand is paid
    before honba and deposits; ``payments`` what each payer pays, honba included. Its JSON is
    made straight from the best reading when the items were not asked for (the same lines)."""

    __slots__ = ("honba", "payments", "_best", "_hand")
    unit = "han"
    honba: int
    payments: dict[str, int]
    _best: Value | None
    _hand: RHand | None

    def to_json(self) -> dict[str, Any]:
        best, h = self._best, self._hand
        if self._items is not None or best is None or h is None:
            out = super().to_json()
        else:
            out = {
                "points": self.points, "doubles": self.doubles, "limit_hand": self.limit_hand,
                "score": self.score,
                "items": [{"name": n, "tiles": list(t), "points": p} for n, t, p in
                          _lines(best, h)],
                "arrangement": arrangement(best.reading, h), "combination_doubles": 0,
                "special": self.special, "leftover": [],
            }
        out["honba"] = self.honba
        out["payments"] = self.payments
        return out


class Value:
    """One reading valued: the numbers, and what explains them."""

    __slots__ = ("reading", "hits", "han", "fu", "yakuman", "base", "limit", "score")

    def __init__(self, reading: Reading, hits: Hits, han: int, fu: int, yakuman: int,
                 h: RHand, options: Mapping[str, Any]) -> None:
        self.reading, self.hits, self.han, self.fu, self.yakuman = reading, hits, han, fu, yakuman
        self.base, self.limit = base_points(han, fu, yakuman, options)
        self.score = hand_value(self.base, h.dealer, h.tsumo)

    def rank(self) -> tuple[int, int, int]:
        return self.score, self.han, self.fu


def clear_caches(tables: bool = True) -> None:
    """Empty the caches riichi hands fill: the splits of each part of the concealed tiles as
    sets, the checked melds; with ``tables``, also the splits of a part's counts and the yaku
    worth trying for each kind of hand. For benchmarks; scores never depend on them."""
    _part_splits.cache_clear()
    _meld.cache_clear()
    if tables:
        _complete_splits.cache_clear()
        clear_candidates()


def score_riichi(inp: HandInput, rs: RuleSet) -> ScoreResult:
    """Score a riichi hand: the winner's best reading; a hand that did not win scores 0."""
    h = prepare(inp, rs)
    if h is None:
        result = HanScore(0, 0, None, 0, [], [], leftover=sorted(inp.hand, key=KINDS.index))
        result._best = result._hand = None
        result.honba, result.payments = inp.honba, {}
        return result
    found = readings(h)
    if not found:
        raise ScoringError("the winner's hand is not complete: it is neither four sets and a "
                           "pair, nor seven different pairs, nor the thirteen orphans")
    options = rs.options
    bits = features(h)
    tables = candidates(bits)
    best: Value | None = None
    for r in found:
        v = _value(r, h, options, tables)
        if v is not None and (best is None or v.rank() > best.rank()):
            best = v
    if best is None:
        raise ScoringError("no yaku: a winning hand needs at least one yaku, and dora are not "
                           "yaku (rule mahjong_without_yaku)")
    return _result(best, h)


def _value(r: Reading, h: RHand, options: Mapping[str, Any],
           tables: tuple[tuple[Yakuman, ...], tuple[Yaku, ...]]) -> Value | None:
    """The reading's value, or None when it has no yaku. ``tables``: the yakuman and the yaku
    worth trying for this hand."""
    pinfu = bool(h.closed and _pinfu(r, h))
    fu = fu_of(r, h, pinfu, options["double_wind_pair_fu"])
    if tables[0]:
        found = [(y, n) for y in tables[0] if (n := y.test(r, h))]
        if found:
            return _yakuman(r, h, options, fu, found)
    closed = h.closed
    hits: Hits = []
    han = 0
    for y in tables[1]:
        n = y.test(r, h)
        value = y.closed if closed else y.open
        if n and value:
            hits.append((y.name, y.tiles, int(n), value))
            han += value * int(n)
    renhou = RENHOU.test(r, h)
    if not han and not renhou:
        return None
    han = han + h.dora + h.ura if han else 0
    if renhou and han < 5:  # the higher of a mangan and the value without renhou
        hits.append((RENHOU.name, RENHOU.tiles, 1, 5 - han))
        han = 5
    return Value(r, hits, han, fu, 0, h, options)


def _yakuman(r: Reading, h: RHand, options: Mapping[str, Any], fu: int,
             found: list[tuple[Yakuman, int]]) -> Value:
    """A yakuman reading: each counts once (twice when double, with the option), and only
    the highest unless the option ``multiple_yakuman`` adds them up."""
    double = options["double_yakuman"]
    values = [(y, n if double else 1) for y, n in found]
    if not options["multiple_yakuman"]:
        values = [max(values, key=lambda yn: yn[1])]  # the first of the highest
    count = sum(n for _, n in values)
    hits: Hits = [(y.name, y.tiles, 1, 13 * n) for y, n in values]
    return Value(r, hits, 13 * count, fu, count, h, options)


def _result(best: Value, h: RHand) -> HanScore:
    first, other = paid(best.base, h.dealer, h.tsumo)
    honba = h.honba
    if not h.tsumo:
        payments: dict[str, int] = {"discarder": first + 300 * honba}
    elif h.dealer:
        payments = {"each": first + 100 * honba}
    else:
        payments = {"dealer": first + 100 * honba, "each_other": other + 100 * honba}
    special = best.reading.shape if best.reading.shape in (SEVEN_PAIRS, ORPHANS) else None
    result = HanScore(best.fu, best.han, best.limit, best.score, special=special,
                      explain=lambda: _explain(best, h))
    result._best, result._hand = best, h
    result.honba = honba
    result.payments = payments
    return result


def _lines(best: Value, h: RHand) -> list[tuple[str, tuple[str, ...], int]]:
    """The explanation: each yaku (or yakuman) with its tiles and han, then the dora."""
    r = best.reading
    out = []
    for name, tiles_of, n, han in best.hits:
        tiles = tiles_of(r, h)
        if n == 1:
            out.append((name, tiles[0], han))
        else:  # yakuhai may count several times, each with its pung
            out.extend((name, tiles[min(i, len(tiles) - 1)], han) for i in range(n))
    if not best.yakuman and best.hits and best.hits[0][0] != RENHOU.name:
        if h.dora:
            out.append((DORA, h.dora_tiles, h.dora))
        if h.ura:
            out.append((URA_DORA, h.ura_tiles, h.ura))
    return out


def _explain(best: Value, h: RHand) -> tuple[list[ScoreItem], list[list[str]]]:
    items = [_NEW(ScoreItem, (name, tiles, han, 0, 0.0, False))
             for name, tiles, han in _lines(best, h)]
    return items, arrangement(best.reading, h)


def arrangement(r: Reading, h: RHand) -> list[list[str]]:
    if r.shape == SEVEN_PAIRS:
        return [[KINDS[k]] * 2 for k in range(34) if h.concealed[k]]
    if r.shape == ORPHANS:
        return [list(h.tiles)]
    return [list(SET_TILES[s.kind][s.k]) for s in r.sets] + [[KINDS[r.pair]] * 2]
