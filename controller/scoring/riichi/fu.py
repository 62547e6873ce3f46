"""Fu and base points (RULES.md section 11, "Scoring"): fu by the reading, rounded up to 10;
base points = fu x 2^(han + 2) up to the limits; what the hand is paid."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.scoring.mcr.hand import CHOW, KONG
from controller.scoring.riichi.inputs import TERMINAL_OR_HONOUR, RHand
from controller.scoring.riichi.readings import (
    KANCHAN,
    ORPHANS,
    PENCHAN,
    SEVEN_PAIRS,
    TANKI,
    Reading,
)

MANGAN = 2000
#: base points and name of each limit from 5 han up (13+: option kazoe)
_BY_HAN = ((11, 6000, "sanbaiman"), (8, 4000, "baiman"), (6, 3000, "haneman"),
           (5, MANGAN, "mangan"))
MULTIPLES = ("", "", "double ", "triple ", "quadruple ", "quintuple ", "sextuple ",
             "septuple ", "octuple ")


def fu_of(r: Reading, h: RHand, pinfu: bool, double_wind_fu: int) -> int:
    """The fu of a reading: 20, +10 a closed ron, +2 a tsumo (not pinfu), the sets, the pair,
    the wait; rounded up to 10. Seven pairs 25, pinfu tsumo 20, an open hand with nothing
    more 30. (Kokushi has no sets: 0, a yakuman's fu are only shown.)"""
    if r.shape == SEVEN_PAIRS:
        return 25
    if r.shape == ORPHANS:
        return 0
    if pinfu and h.tsumo:
        return 20
    fu = 20
    if h.tsumo:
        fu += 2
    elif h.closed:
        fu += 10
    for s in r.sets:
        if s.kind != CHOW:
            v = 4 if TERMINAL_OR_HONOUR[s.k] else 2
            if not s.exposed:
                v *= 2
            if s.kind == KONG:
                v *= 4
            fu += v
    fu += pair_fu(r.pair, h, double_wind_fu)
    if r.wait in (KANCHAN, PENCHAN, TANKI):
        fu += 2
    fu = -(-fu // 10) * 10
    return 30 if fu == 20 else fu  # an open ron with no fu: 30


def pair_fu(k: int, h: RHand, double_wind_fu: int) -> int:
    """A pair of dragons 2; of the seat or the prevailing wind 2; of a wind both: the option."""
    if k >= 31:
        return 2
    if k == h.seat and k == h.prevailing:
        return double_wind_fu
    return 2 if k in (h.seat, h.prevailing) else 0


def limit_name(yakuman: int) -> str:
    return MULTIPLES[yakuman] + "yakuman" if yakuman < len(MULTIPLES) else (
        f"{yakuman}x yakuman")


def base_points(
    han: int, fu: int, yakuman: int, options: Mapping[str, Any]
) -> tuple[int, str | None]:
    """Base points and the limit's name (None below mangan)."""
    if yakuman:
        return 8000 * yakuman, limit_name(yakuman)
    if han >= 13:
        return (8000, "yakuman") if options["kazoe"] == "yakuman" else (6000, "sanbaiman")
    for at_least, base, name in _BY_HAN:
        if han >= at_least:
            return base, name
    base = fu * 2 ** (han + 2)
    if base > MANGAN or (options["kiriage"] and (han, fu) in ((4, 30), (3, 60))):
        return MANGAN, "mangan"
    return base, None


def up100(n: int) -> int:
    return -(-n // 100) * 100


def paid(base: int, dealer: bool, tsumo: bool) -> tuple[int, int]:
    """What one payer pays: (a ron's discarder or the dealer on a tsumo, each other payer);
    a dealer's tsumo is paid alike by all three."""
    if not tsumo:
        return up100(base * (6 if dealer else 4)), 0
    if dealer:
        each = up100(2 * base)
        return each, each
    return up100(2 * base), up100(base)


def hand_value(base: int, dealer: bool, tsumo: bool) -> int:
    """What the hand is paid before honba and deposits: a ron the discarder's payment, a tsumo
    the three payments added up (FORMATS.md)."""
    first, other = paid(base, dealer, tsumo)
    return first + 2 * other
