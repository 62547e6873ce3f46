"""A HandInput made an mcr Hand (hand.py): the facts of the win, the melds as sets, the counts.

``quick_hand`` is the common path: one pass over an input that is plainly right, doing every
check of ``validate.check_input`` the cheap way. Anything that looks off (a code, a meld, a
count, a size, a flag, the winner's facts, a value of the wrong type) makes it give up; then the
caller runs the full checks, which name the problem as for every rule set, and ``prepare``.
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.scoring.mcr.hand import CHOW, KONG, PUNG, Hand, Set, Win
from controller.scoring.model import FLAGS, WIN_SOURCES, HandInput, ScoringError
from controller.scoring.rules import RuleSet
from controller.scoring.validate import CheckedHand, meld_kinds
from controller.tiles import BONUS_CODES, KIND_INDEX, KINDS, WINDS, wind_code

_SELF_DRAWN = ("wall", "replacement", "dealt")
_WIND_KINDS = {w: KIND_INDEX[wind_code(w)] for w in WINDS}
_EAST = KIND_INDEX["ew"]
_BONUS = frozenset(BONUS_CODES)
_FLAGS = frozenset(FLAGS)
_BIT = tuple(1 << k for k in range(34))


def _set_of(kinds: tuple[int, ...], concealed: bool) -> Set:
    """A checked meld as a Set, from its kind indices (``validate.meld_kinds``: a chow's
    sorted); a concealed kong is the only meld not exposed."""
    k = kinds[0]
    if len(kinds) == 4:
        return Set(KONG, k, not concealed, True)
    if kinds[0] == kinds[1]:
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
    has_kong = KONG in [m.kind for m in melds]
    robbed = src == "robbed_kong" and concealed[w] == 1 and in_melds == 0
    return tuple.__new__(Win, (w, src in _SELF_DRAWN, last_of_kind and not robbed,  # Win(...)
                               src == "replacement" and has_kong, robbed, bool(inp.last_tile)))


def _made(inp: HandInput, counts: list[int], concealed: tuple[int, ...],  # noqa: PLR0913
          melds: tuple[Set, ...], seat: int, prevailing: int, kinds: list[int]) -> Hand:
    """The Hand; ``kinds``: the kind of every tile (rack and melds)."""
    counted = tuple(counts)
    return tuple.__new__(Hand, (  # Hand(...), all fields, without the call
        counted, concealed, melds, win_facts(inp, concealed, counted, melds), seat, prevailing,
        tuple(map(KINDS.__getitem__, sorted(kinds))), sum(map(_BIT.__getitem__, set(kinds))),
        {}))


def prepare(inp: HandInput, hand: CheckedHand) -> Hand:
    """The Hand of an input that passed ``check_input``."""
    melds = tuple(_set_of(meld_kinds(m), m.concealed) for m in hand.melds)
    kinds = [k for k, n in enumerate(hand.counts) for _ in range(n)]
    return _made(inp, list(hand.counts), tuple(hand.concealed_counts), melds,
                 KIND_INDEX[hand.seat], KIND_INDEX[hand.prevailing], kinds)


def quick_hand(inp: HandInput, rs: RuleSet) -> Hand | None:
    """The Hand of a winner's input that passes every check, made in one pass; None when
    anything looks off or the player did not win (the caller then checks in full)."""
    try:
        return _quick(inp, rs)
    except (TypeError, KeyError, AttributeError, ScoringError):
        return None


def _quick(inp: HandInput, rs: RuleSet) -> Hand | None:
    seat, prevailing = _WIND_KINDS[inp.seat_wind], _WIND_KINDS[inp.prevailing_wind]
    hand = tuple(inp.hand)
    if not inp.mahjong or len(hand) != 14 - 3 * len(inp.melds):  # five melds: never
        return None
    kinds = [KIND_INDEX[t] for t in hand]
    counts = [0] * 34
    for k in kinds:
        counts[k] += 1
    concealed = tuple(counts)
    melds = []
    for m in inp.melds:
        meld = meld_kinds(m)  # checked once per meld, then kept
        for k in meld:
            counts[k] += 1
        kinds += meld
        melds.append(_set_of(meld, m.concealed))
    bonus = inp.bonus
    if max(counts) > 4 or (bonus and not (rs.bonus_tiles and len(set(bonus)) == len(bonus)
                                          and _BONUS.issuperset(bonus))):
        return None
    src = inp.win_source
    if (inp.winning_tile not in hand or src not in WIN_SOURCES
            or (src == "dealt" and seat != _EAST) or not _FLAGS.issuperset(inp.flags)):
        return None
    return _made(inp, counts, concealed, tuple(melds), seat, prevailing, kinds)
