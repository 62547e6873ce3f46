"""The facts of a riichi hand that gate the yaku, as bits of one int (computed once per hand).
A yaku's ``needs`` bits must all be set and its ``not_with`` bits none; the yaku worth trying
for each combination of facts are listed once and kept (``yaku.candidates``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from controller.scoring.riichi.inputs import RHand

_NAMES = ("RIICHI DOUBLE IPPATSU CLOSED TSUMO SIMPLE HONOURS TERMINAL_HONOUR ONE_SUIT "
          "THREE_SUITS NO_SUIT LAST_WALL LAST_DISCARD REPLACEMENT ROBBED NO_MELDS KONGS3 KONGS4 "
          "GREEN FIRST_DEALER FIRST_OTHER RENHOU_MANGAN RENHOU_YAKUMAN DRAGONS8 DRAGONS9 "
          "WINDS11 WINDS12 PUNGS3 PUNGS4").split()
(RIICHI, DOUBLE, IPPATSU, CLOSED, TSUMO, SIMPLE, HONOURS, TERMINAL_HONOUR, ONE_SUIT,
 THREE_SUITS, NO_SUIT, LAST_WALL, LAST_DISCARD, REPLACEMENT, ROBBED, NO_MELDS, KONGS3, KONGS4,
 GREEN, FIRST_DEALER, FIRST_OTHER, RENHOU_MANGAN, RENHOU_YAKUMAN, DRAGONS8, DRAGONS9, WINDS11,
 WINDS12, PUNGS3, PUNGS4) = (1 << i for i in range(len(_NAMES)))


def features(h: RHand) -> int:
    """The hand's facts as bits."""
    c = h.counts
    src = h.source
    pungs = c.count(3) + c.count(4)
    dragons = c[31] + c[32] + c[33]
    winds = c[27] + c[28] + c[29] + c[30]
    first = h.first_turn
    renhou = h.first_discard
    return (
        (RIICHI if h.riichi and not h.double_riichi else 0) | (DOUBLE if h.double_riichi else 0)
        | (IPPATSU if h.ippatsu else 0) | (CLOSED if h.closed else 0)
        | (TSUMO if h.tsumo else 0) | (SIMPLE if h.simple else 0)
        | (HONOURS if h.honours else 0) | (TERMINAL_HONOUR if h.terminal_honour else 0)
        | ((ONE_SUIT, ONE_SUIT, 0, THREE_SUITS)[h.suits] if h.suits else NO_SUIT)
        | (LAST_WALL if h.last_tile and src == "wall" else 0)
        | (LAST_DISCARD if h.last_tile and src == "discard" else 0)
        | (REPLACEMENT if src == "replacement" else 0) | (ROBBED if src == "robbed_kong" else 0)
        | (0 if h.melds else NO_MELDS) | (KONGS3 if h.kongs == 3 else 0)
        | (KONGS4 if h.kongs == 4 else 0) | (GREEN if h.green else 0)
        | ((FIRST_DEALER if h.dealer else FIRST_OTHER) if first else 0)
        | (RENHOU_MANGAN if renhou and h.renhou == "mangan" else 0)
        | (RENHOU_YAKUMAN if renhou and h.renhou == "yakuman" else 0)
        | (DRAGONS8 if dragons >= 8 else 0) | (DRAGONS9 if dragons >= 9 else 0)
        | (WINDS11 if winds >= 11 else 0) | (WINDS12 if winds >= 12 else 0)
        | (PUNGS3 if pungs >= 3 else 0) | (PUNGS4 if pungs >= 4 else 0)
    )
