"""The yaku and yakuman of RULES.md section 11, as a table: each with its han (closed / open;
an open value of 0: closed hands only), a test over a reading and the hand, and the tiles that
explain it. The names are the ones RULES.md gives (the EMA's spelling)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, TypeVar

from controller.scoring.mcr.hand import CHOW, KONG, SET_TILES, Set
from controller.scoring.riichi.features import (
    CLOSED,
    DOUBLE,
    DRAGONS8,
    DRAGONS9,
    FIRST_DEALER,
    FIRST_OTHER,
    GREEN,
    HONOURS,
    IPPATSU,
    KONGS3,
    KONGS4,
    LAST_DISCARD,
    LAST_WALL,
    NO_MELDS,
    NO_SUIT,
    ONE_SUIT,
    PUNGS3,
    PUNGS4,
    RENHOU_MANGAN,
    RENHOU_YAKUMAN,
    REPLACEMENT,
    RIICHI,
    ROBBED,
    SIMPLE,
    TERMINAL_HONOUR,
    THREE_SUITS,
    TSUMO,
    WINDS11,
    WINDS12,
)
from controller.scoring.riichi.inputs import RHand
from controller.scoring.riichi.readings import (
    ORPHANS,
    RYANMEN,
    SEVEN_PAIRS,
    STANDARD,
    TANKI,
    Reading,
)
from controller.tiles import KINDS

Test = Callable[[Reading, RHand], int]
Tiles = Callable[[Reading, RHand], list[tuple[str, ...]]]
_DRAGONS = (31, 32, 33)
_WINDS = (27, 28, 29, 30)
_CHUUREN = (3, 1, 1, 1, 1, 1, 1, 1, 3)


class Yaku(NamedTuple):
    """One yaku: ``test`` answers how many times it counts (yakuhai may count several times).
    ``needs`` and ``not_with``: facts of the hand (features.py) it cannot do without and
    cannot go with: a gate, only ever a necessary condition, read once per kind of hand."""

    name: str
    closed: int
    open: int
    test: Test
    tiles: Tiles
    needs: int = 0
    not_with: int = 0


class Yakuman(NamedTuple):
    """One yakuman: ``test`` answers 0 (no), 1, or 2 (a double yakuman when the option
    ``double_yakuman`` is on, else 1)."""

    name: str
    test: Test
    tiles: Tiles
    needs: int = 0
    not_with: int = 0


# --- tiles that explain an item ---------------------------------------------------------------


def _none(r: Reading, h: RHand) -> list[tuple[str, ...]]:
    return [()]


def _win(r: Reading, h: RHand) -> list[tuple[str, ...]]:
    return [(KINDS[h.win],)]


def _all(r: Reading, h: RHand) -> list[tuple[str, ...]]:
    return [h.tiles]


def _sets(pick: Callable[[Set, Reading, RHand], bool]) -> Tiles:
    """The tiles of the sets ``pick`` chooses, as one occurrence."""
    def tiles(r: Reading, h: RHand) -> list[tuple[str, ...]]:
        out: tuple[str, ...] = ()
        for s in r.sets:
            if pick(s, r, h):
                out += SET_TILES[s.kind][s.k]
        return [out]
    return tiles


def _with_pair(inner: Tiles) -> Tiles:
    def tiles(r: Reading, h: RHand) -> list[tuple[str, ...]]:
        return [inner(r, h)[0] + (KINDS[r.pair],) * 2]
    return tiles


def _pung_tiles(k: int, sets: tuple[Set, ...]) -> tuple[str, ...]:
    s = next(s for s in sets if s.kind != CHOW and s.k == k)
    return SET_TILES[s.kind][s.k]


# --- yaku ---------------------------------------------------------------------------------------


def peikou(r: Reading) -> int:
    """How many pairs of identical chows the reading holds (iipeikou 1, ryanpeikou 2)."""
    c = r.chows
    if len(c) < 2:
        return 0
    if len(c) == 4 and c[0] == c[1] and c[2] == c[3]:
        return 2
    return 1 if any(c[i] == c[i + 1] for i in range(len(c) - 1)) else 0


def valued_pair(r: Reading, h: RHand) -> bool:
    return r.pair >= 31 or r.pair == h.seat or r.pair == h.prevailing


def _pinfu(r: Reading, h: RHand) -> int:
    return (h.closed and r.shape == STANDARD and len(r.chows) == 4 and r.wait == RYANMEN
            and not valued_pair(r, h))


def _yakuhai_kinds(r: Reading, h: RHand) -> list[int]:
    """One entry per yakuhai: each dragon pung, a pung of the seat wind, of the prevailing wind
    (a double wind counts twice)."""
    out = []
    for k in r.pungs:
        if k >= 31:
            out.append(k)
        elif k >= 27:
            if k == h.seat:
                out.append(k)
            if k == h.prevailing:
                out.append(k)
    return out


def _three_suits(kinds: tuple[int, ...]) -> int | None:
    """A number held in all three suits (the first kind of the lowest suit), or None."""
    for k in kinds:
        if k < 9 and k + 9 in kinds and k + 18 in kinds:
            return k
    return None


def _ittsu_suit(r: Reading) -> int | None:
    for b in (0, 9, 18):
        if b in r.chows and b + 3 in r.chows and b + 6 in r.chows:
            return b
    return None


def _dragon_pungs(r: Reading) -> int:
    return sum(1 for k in r.pungs if k >= 31)


def _wind_pungs(r: Reading) -> int:
    return sum(1 for k in r.pungs if 27 <= k <= 30)


def _chows_of(pick: Callable[[Reading], list[int]]) -> Tiles:
    def tiles(r: Reading, h: RHand) -> list[tuple[str, ...]]:
        return [tuple(t for k in pick(r) for t in SET_TILES[CHOW][k])]
    return tiles


def _peikou_chows(r: Reading) -> list[int]:
    """The two identical chows of iipeikou."""
    c = r.chows
    k = next(c[i] for i in range(len(c) - 1) if c[i] == c[i + 1])
    return [k, k]


YAKU: tuple[Yaku, ...] = (
    Yaku("riichi", 1, 0, lambda r, h: h.riichi and not h.double_riichi, _none, RIICHI),
    Yaku("ippatsu", 1, 0, lambda r, h: h.ippatsu, _none, IPPATSU),
    Yaku("menzen tsumo", 1, 0, lambda r, h: h.closed and h.tsumo, _win, CLOSED | TSUMO),
    Yaku("pinfu", 1, 0, _pinfu, _all, CLOSED),
    Yaku("iipeikou", 1, 0, lambda r, h: h.closed and peikou(r) == 1, _chows_of(_peikou_chows),
         CLOSED),
    Yaku("tanyao", 1, 1, lambda r, h: h.simple, _all, SIMPLE),
    Yaku("yakuhai", 1, 1, lambda r, h: len(_yakuhai_kinds(r, h)),
         lambda r, h: [_pung_tiles(k, r.sets) for k in _yakuhai_kinds(r, h)], HONOURS),
    Yaku("haitei", 1, 1, lambda r, h: h.last_tile and h.source == "wall", _win, LAST_WALL),
    Yaku("houtei", 1, 1, lambda r, h: h.last_tile and h.source == "discard", _win,
         LAST_DISCARD),
    Yaku("rinshan kaihou", 1, 1, lambda r, h: h.source == "replacement", _win, REPLACEMENT),
    Yaku("chankan", 1, 1, lambda r, h: h.source == "robbed_kong", _win, ROBBED),
    Yaku("double riichi", 2, 0, lambda r, h: h.double_riichi, _none, DOUBLE),
    Yaku("chiitoitsu", 2, 0, lambda r, h: r.shape == SEVEN_PAIRS, _all, NO_MELDS),
    Yaku("sanshoku doujun", 2, 1, lambda r, h: _three_suits(r.chows) is not None,
         _chows_of(lambda r: [_three_suits(r.chows) + d for d in (0, 9, 18)]),  # type: ignore[operator]
         THREE_SUITS),
    Yaku("ittsu", 2, 1, lambda r, h: _ittsu_suit(r) is not None,
         _chows_of(lambda r: [_ittsu_suit(r) + d for d in (0, 3, 6)])),  # type: ignore[operator]
    Yaku("chanta", 2, 1, lambda r, h: r.outside and bool(r.chows) and h.honours, _all,
         HONOURS, SIMPLE),
    Yaku("toitoi", 2, 2, lambda r, h: r.shape == STANDARD and not r.chows,
         _sets(lambda s, r, h: True), PUNGS4),
    Yaku("sanankou", 2, 2, lambda r, h: r.concealed_pungs >= 3,
         _sets(lambda s, r, h: s.kind != CHOW and not s.exposed), PUNGS3),
    Yaku("sanshoku doukou", 2, 2, lambda r, h: _three_suits(r.pungs) is not None,
         _sets(lambda s, r, h: s.kind != CHOW and s.k % 9 == _three_suits(r.pungs)
               and s.k < 27), THREE_SUITS | PUNGS3),
    Yaku("sankantsu", 2, 2, lambda r, h: h.kongs == 3, _sets(lambda s, r, h: s.kind == KONG),
         KONGS3),
    Yaku("honroutou", 2, 2, lambda r, h: h.terminal_honour, _all, TERMINAL_HONOUR),
    Yaku("shousangen", 2, 2, lambda r, h: _dragon_pungs(r) == 2 and r.pair >= 31,
         _with_pair(_sets(lambda s, r, h: s.kind != CHOW and s.k >= 31)), DRAGONS8),
    Yaku("ryanpeikou", 3, 0, lambda r, h: h.closed and peikou(r) == 2, _chows_of(lambda r: [
        *r.chows]), CLOSED),
    Yaku("junchan", 3, 2, lambda r, h: r.outside and bool(r.chows) and not h.honours, _all,
         0, HONOURS | SIMPLE),
    Yaku("honitsu", 3, 2, lambda r, h: h.suits == 1 and h.honours, _all, ONE_SUIT | HONOURS),
    Yaku("chinitsu", 6, 5, lambda r, h: h.suits == 1 and not h.honours, _all, ONE_SUIT,
         HONOURS),
)


# --- yakuman --------------------------------------------------------------------------------------


def _kokushi(r: Reading, h: RHand) -> int:
    if r.shape != ORPHANS:
        return 0
    return 2 if h.concealed[h.win] == 2 else 1  # the 13-sided wait: the tile made the pair


def _suuankou(r: Reading, h: RHand) -> int:
    if r.shape != STANDARD or r.concealed_pungs != 4:
        return 0
    return 2 if r.wait == TANKI else 1


def _chuuren(r: Reading, h: RHand) -> int:
    if h.melds or h.suits != 1 or h.honours or r.shape != STANDARD:
        return 0
    c = h.concealed
    base = next(b for b in (0, 9, 18) if c[b : b + 9] != [0] * 9)
    suit = c[base : base + 9]
    if any(n < m for n, m in zip(suit, _CHUUREN, strict=True)):
        return 0
    suit[h.win - base] -= 1
    return 2 if tuple(suit) == _CHUUREN else 1  # junsei: the nine-sided wait


YAKUMAN: tuple[Yakuman, ...] = (
    Yakuman("kokushi musou", _kokushi, _all, NO_MELDS | TERMINAL_HONOUR),
    Yakuman("suuankou", _suuankou, _sets(lambda s, r, h: s.kind != CHOW), CLOSED | PUNGS4),
    Yakuman("daisangen", lambda r, h: _dragon_pungs(r) == 3,
            _sets(lambda s, r, h: s.kind != CHOW and s.k >= 31), DRAGONS9),
    Yakuman("shousuushii", lambda r, h: _wind_pungs(r) == 3 and r.pair in _WINDS,
            _with_pair(_sets(lambda s, r, h: s.kind != CHOW and 27 <= s.k <= 30)), WINDS11),
    Yakuman("daisuushii", lambda r, h: 2 * (_wind_pungs(r) == 4),
            _sets(lambda s, r, h: s.kind != CHOW and 27 <= s.k <= 30), WINDS12),
    Yakuman("tsuuiisou", lambda r, h: h.suits == 0, _all, NO_SUIT),
    Yakuman("chinroutou", lambda r, h: h.terminal_honour and not h.honours, _all,
            TERMINAL_HONOUR, HONOURS),
    Yakuman("ryuuiisou", lambda r, h: h.green, _all, GREEN),
    Yakuman("chuuren poutou", _chuuren, _all, NO_MELDS | ONE_SUIT, HONOURS),
    Yakuman("suukantsu", lambda r, h: h.kongs == 4, _sets(lambda s, r, h: s.kind == KONG),
            KONGS4),
    Yakuman("tenhou", lambda r, h: h.first_turn and h.dealer, _win, FIRST_DEALER),
    Yakuman("chiihou", lambda r, h: h.first_turn and not h.dealer, _win, FIRST_OTHER),
    Yakuman("renhou", lambda r, h: h.first_discard and h.renhou == "yakuman", _win,
            RENHOU_YAKUMAN),
)

#: renhou under the option ``renhou: mangan``: it brings the hand to 5 han (a mangan)
RENHOU = Yaku("renhou", 5, 0, lambda r, h: h.first_discard and h.renhou == "mangan", _win,
              RENHOU_MANGAN)


_Item = TypeVar("_Item", Yaku, Yakuman)
_YAKU_FOR: dict[int, tuple[Yaku, ...]] = {}
_YAKUMAN_FOR: dict[int, tuple[Yakuman, ...]] = {}


def _gated(table: tuple[_Item, ...], bits: int, kept: dict[int, tuple[_Item, ...]]
           ) -> tuple[_Item, ...]:
    found = kept.get(bits)
    if found is None:
        found = kept[bits] = tuple(
            y for y in table if y.needs & bits == y.needs and not y.not_with & bits)
    return found


def candidates(bits: int) -> tuple[tuple[Yakuman, ...], tuple[Yaku, ...]]:
    """The yakuman and the yaku whose gates a hand with the facts ``bits`` passes (kept)."""
    return _gated(YAKUMAN, bits, _YAKUMAN_FOR), _gated(YAKU, bits, _YAKU_FOR)


def clear_candidates() -> None:
    _YAKU_FOR.clear()
    _YAKUMAN_FOR.clear()
