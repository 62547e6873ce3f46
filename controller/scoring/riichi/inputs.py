"""A riichi HandInput checked and made a RHand: counts, melds, the facts of the win, the dora.

The checks every rule set shares run first (validate.check_input: codes, sets, copies, sizes,
the winning tile); then riichi's own: its flags, the indicators, and the facts of a win that
cannot go together (FORMATS.md, RULES.md section 11). Each failure is one ScoringError line.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from controller.scoring.mcr.hand import CHOW, KONG, PUNG, Set
from controller.scoring.model import RIICHI_FLAGS, WIN_SOURCES, HandInput, ScoringError
from controller.scoring.rules import RuleSet
from controller.scoring.validate import CheckedHand, check_input, meld_kinds
from controller.tiles import KIND_INDEX, KINDS, WINDS, Meld, wind_code

SELF_DRAWN = frozenset({"wall", "replacement", "dealt"})
_FLAGS = frozenset(RIICHI_FLAGS)
TERMINAL_OR_HONOUR = tuple(k >= 27 or k % 9 in (0, 8) for k in range(34))
GREEN = frozenset(KIND_INDEX[t] for t in ("2b", "3b", "4b", "6b", "8b", "gd"))


def _next_kind(k: int) -> int:
    """The dora an indicator of kind ``k`` shows: the next of its kind (RULES.md section 11)."""
    if k < 27:
        return k - 8 if k % 9 == 8 else k + 1
    if k < 31:  # winds ew sw ww nw
        return 27 if k == 30 else k + 1
    order = [KIND_INDEX[t] for t in ("wd", "gd", "rd")]  # dragons: wd -> gd -> rd -> wd
    return order[(order.index(k) + 1) % 3]


#: DORA_OF[k]: the dora that an indicator of kind k shows
DORA_OF = tuple(_next_kind(k) for k in range(34))


_BIT = {t: 1 << k for k, t in enumerate(KINDS)}
_MASK_TERMINAL_HONOUR = sum(1 << k for k in range(34) if TERMINAL_OR_HONOUR[k])
_MASK_SIMPLE = ((1 << 34) - 1) & ~_MASK_TERMINAL_HONOUR
_MASK_HONOUR = sum(1 << k for k in range(27, 34))
_SUIT_B, _SUIT_C, _SUIT_D = (((1 << 9) - 1) << b for b in (0, 9, 18))
_EAST = KIND_INDEX["ew"]
_WIND_KIND = {w: KIND_INDEX[wind_code(w)] for w in WINDS}
_SOURCES = frozenset(WIN_SOURCES)
_FIVE = frozenset(range(5))
_REPEAT = tuple(tuple((t,) * n for n in range(5)) for t in KINDS)
_MASK_NOT_GREEN = ((1 << 34) - 1) & ~sum(1 << k for k in GREEN)
_DORA = {t: DORA_OF[k] for k, t in enumerate(KINDS)}


class RHand:
    """A riichi winner's hand, as the yaku look at it (computed once per hand)."""

    __slots__ = ("counts", "concealed", "melds", "closed", "win", "source", "tsumo", "seat",
                 "prevailing", "dealer", "riichi", "double_riichi", "ippatsu", "first_turn",
                 "first_discard", "last_tile", "dora", "ura", "kongs", "honba",
                 "dora_indicators", "ura_indicators", "simple", "suits", "honours",
                 "terminal_honour", "green", "renhou", "_tiles")

    def __init__(  # noqa: PLR0913 - what the checks found
        self, inp: HandInput, rs: RuleSet, counts: list[int], concealed: list[int],
        melds: tuple[Set, ...], seat: int, prevailing: int, mask: int,
    ) -> None:
        flags = inp.flags
        self.counts = counts
        self.concealed = concealed
        self.melds = melds
        self.closed = True
        self.kongs = 0
        for m in melds:
            if m.exposed:
                self.closed = False
            if m.kind == KONG:
                self.kongs += 1
        self.win = KIND_INDEX[inp.winning_tile]  # type: ignore[index]  # checked
        self.source = src = str(inp.win_source)
        self.tsumo = src in SELF_DRAWN
        self.seat = seat
        self.prevailing = prevailing
        self.dealer = seat == _EAST
        self.double_riichi = "double_riichi" in flags
        self.riichi = self.double_riichi or "riichi" in flags
        self.ippatsu = "ippatsu" in flags
        self.first_turn = src == "dealt" or "first_turn" in flags
        self.first_discard = bool(inp.first_discard)
        self.last_tile = bool(inp.last_tile)
        self.honba = inp.honba
        self.dora_indicators = inp.dora_indicators
        self.ura_indicators = inp.ura_dora_indicators if self.riichi else ()
        self.dora = sum([counts[_DORA[t]] for t in self.dora_indicators])
        self.ura = sum([counts[_DORA[t]] for t in self.ura_indicators])
        self.simple = not mask & _MASK_TERMINAL_HONOUR
        self.terminal_honour = not mask & _MASK_SIMPLE
        self.suits = (mask & _SUIT_B != 0) + (mask & _SUIT_C != 0) + (mask & _SUIT_D != 0)
        self.honours = bool(mask & _MASK_HONOUR)
        self.green = not mask & _MASK_NOT_GREEN
        #: the option ``renhou`` (mangan, yakuman, off)
        self.renhou = rs.options["renhou"]
        self._tiles: tuple[str, ...] | None = None

    @property
    def tiles(self) -> tuple[str, ...]:
        """Every tile of the hand (rack and melds), in KINDS order (for the explanation)."""
        if self._tiles is None:
            c = self.counts
            self._tiles = tuple([t for k in range(34) if c[k] for t in _REPEAT[k][c[k]]])
        return self._tiles

    @property
    def dora_tiles(self) -> tuple[str, ...]:
        return _dora_tiles(self.counts, self.dora_indicators)

    @property
    def ura_tiles(self) -> tuple[str, ...]:
        return _dora_tiles(self.counts, self.ura_indicators)


def _dora_tiles(counts: Sequence[int], indicators: Sequence[str]) -> tuple[str, ...]:
    """The hand's tiles that are dora, one entry per han (an indicator shown twice counts
    its dora twice)."""
    out: list[str] = []
    for ind in indicators:
        d = DORA_OF[KIND_INDEX[ind]]
        out.extend([KINDS[d]] * counts[d])
    return tuple(out)


@cache
def _meld(tiles: tuple[str, ...], concealed: bool) -> tuple[tuple[int, ...], Set, int]:
    """A meld checked: its kinds, its Set and its kinds as bits (kept: melds repeat)."""
    kinds = meld_kinds(Meld(tiles, concealed))
    return kinds, _meld_set(kinds, concealed), sum({1 << k for k in kinds})


def _meld_set(kinds: tuple[int, ...], concealed: bool) -> Set:
    if len(kinds) == 4:
        return Set(KONG, kinds[0], not concealed, True)
    return Set(PUNG if kinds[0] == kinds[1] else CHOW, kinds[0], True, True)


def prepare(inp: HandInput, rs: RuleSet) -> RHand | None:
    """Check a riichi input; the RHand of a winner, None for a hand that did not win."""
    hand = quick_hand(inp, rs)
    if hand is not None:
        _check_win(inp, hand)
        return hand
    return checked_hand(inp, rs)


def checked_hand(inp: HandInput, rs: RuleSet) -> RHand | None:
    """The full checks, each naming the problem it finds; then the RHand as ``prepare``."""
    for f in inp.flags:
        if f not in _FLAGS:
            raise ScoringError(f"unknown flag {f!r} for rule set riichi: the flags are "
                               + ", ".join(RIICHI_FLAGS))
    checked = check_input(inp, rs, flags=RIICHI_FLAGS)
    _check_indicators(inp, checked)
    if not inp.mahjong:
        return None
    melds = tuple(_meld_set(meld_kinds(m), bool(m.concealed)) for m in checked.melds)
    mask = 0
    for k in range(34):
        if checked.counts[k]:
            mask |= 1 << k
    hand = RHand(inp, rs, checked.counts, checked.concealed_counts, melds,
                 KIND_INDEX[checked.seat], KIND_INDEX[checked.prevailing], mask)
    _check_win(inp, hand)
    return hand


def quick_hand(inp: HandInput, rs: RuleSet) -> RHand | None:  # noqa: C901 - one pass
    """A winner's RHand by the cheap path: every check of ``check_input`` and
    ``_check_indicators`` done the quick way. Anything that looks off (or a hand that did not
    win) answers None, and the full checks then name the problem."""
    try:
        seat = _WIND_KIND[inp.seat_wind]
        prevailing = _WIND_KIND[inp.prevailing_wind]
        if not inp.mahjong or inp.bonus or len(inp.melds) > 4 or not _FLAGS.issuperset(
                inp.flags):
            return None
        concealed = [0] * 34
        mask = 0
        for t in inp.hand:
            concealed[KIND_INDEX[t]] += 1
            mask |= _BIT[t]
        counts = concealed.copy()
        melds = []
        for m in inp.melds:
            kinds, made, bits = _meld(tuple(m.tiles), True if m.concealed else False)
            for k in kinds:
                counts[k] += 1
            mask |= bits
            melds.append(made)
        dora, ura = inp.dora_indicators, inp.ura_dora_indicators
        seen = counts.copy()
        for t in (*dora, *ura):
            seen[KIND_INDEX[t]] += 1
        if not (_FIVE.issuperset(seen) and len(inp.hand) == 14 - 3 * len(melds)
                and concealed[KIND_INDEX[inp.winning_tile]]  # type: ignore[index]
                and inp.win_source in _SOURCES and (inp.win_source != "dealt" or seat == _EAST)
                and len(dora) <= 5 and (not ura or (len(ura) == len(dora) and (
                    "riichi" in inp.flags or "double_riichi" in inp.flags)))
                and type(inp.honba) is int and inp.honba >= 0
                and isinstance(dora, list | tuple) and isinstance(ura, list | tuple)):
            return None
    except (KeyError, TypeError, ScoringError):
        return None
    return RHand(inp, rs, counts, concealed, tuple(melds), seat, prevailing, mask)


def _indicator_list(value: object, field: str) -> list[str]:
    if not isinstance(value, list | tuple) or not all(isinstance(t, str) for t in value):
        raise ScoringError(f"field {field!r} must be a list of tile codes, not {value!r}")
    for t in value:
        if t not in KIND_INDEX:
            raise ScoringError(f"{field}: {t!r} is not a tile of riichi's 34 kinds")
    return list(value)


def _check_indicators(inp: HandInput, checked: CheckedHand) -> None:
    dora = _indicator_list(inp.dora_indicators, "dora_indicators")
    ura = _indicator_list(inp.ura_dora_indicators, "ura_dora_indicators")
    if len(dora) > 5:
        raise ScoringError(f"{len(dora)} dora indicators: at most 5 (one, and one per kong)")
    if ura and len(ura) != len(dora):
        raise ScoringError(f"{len(ura)} ura dora indicators for {len(dora)} dora indicators: "
                           "as many as the indicators, or none")
    if ura and not ({"riichi", "double_riichi"} & set(inp.flags) and inp.mahjong):
        raise ScoringError("ura_dora_indicators count only for a winner in riichi "
                           "(flag riichi or double_riichi)")
    honba = inp.honba
    if isinstance(honba, bool) or not isinstance(honba, int) or honba < 0:
        raise ScoringError(f"field 'honba' must be a whole number >= 0, not {honba!r}")
    seen = list(checked.counts)
    for t in (*dora, *ura):
        k = KIND_INDEX[t]
        seen[k] += 1
        if seen[k] > 4:
            raise ScoringError(f"{seen[k]} copies of {t} across hand, melds and indicators: "
                               "the set holds only 4")


def _check_win(inp: HandInput, h: RHand) -> None:  # noqa: C901 - one line per fact
    """The facts of a win that cannot go together (FORMATS.md's riichi flags)."""
    dora = len(inp.dora_indicators)
    if dora and dora < 1 + h.kongs:
        raise ScoringError(f"{dora} dora indicators with {h.kongs} kongs in the hand: every "
                           "kong reveals one more (at least one plus one per kong)")
    if h.riichi and not h.closed:
        raise ScoringError("flag riichi with a claimed set: riichi needs a closed hand "
                           "(concealed kongs allowed)")
    if h.ippatsu and not h.riichi:
        raise ScoringError("flag ippatsu needs flag riichi or double_riichi")
    if h.source == "replacement" and not h.kongs:
        raise ScoringError("win_source 'replacement' follows a kong: the winner has none")
    if h.last_tile and h.source in ("robbed_kong", "dealt"):
        raise ScoringError(f"last_tile with win_source {h.source!r}: haitei is a tsumo on the "
                           "last tile, houtei a ron on its discard")
    if h.first_turn and (not h.tsumo or h.source == "replacement" or h.melds):
        raise ScoringError("flag first_turn (tenhou, chiihou) needs a tsumo in the first "
                           "go-around with no call: win_source wall or dealt, no melds")
    if h.first_discard and (h.dealer or h.source != "discard" or h.melds):
        raise ScoringError("first_discard (renhou) is a non-dealer's ron on a discard before "
                           "its own first draw, with no melds")
