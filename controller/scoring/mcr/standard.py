"""The fans of a standard hand (four sets and a pair) in one arrangement, and the fans every
hand shape shares: the win, the suits, the kinds of tiles, the range of ranks, tile hogs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from controller.scoring.mcr import fans as f
from controller.scoring.mcr.fans import Hit
from controller.scoring.mcr.hand import CHOW, KONG, PUNG, Hand, Set, Win, waited_on_one
from controller.scoring.mcr.sets import chow_hits, pung_hits
from controller.tiles import KINDS

_TERMINALS = frozenset((0, 8, 9, 17, 18, 26))
_GREEN = frozenset((1, 2, 3, 5, 7, 32))  # 2b 3b 4b 6b 8b gd
_REVERSIBLE = frozenset((1, 3, 4, 5, 7, 8, 18, 19, 20, 21, 22, 25, 26, 33))  # 245689b 1234589d wd


def all_tiles(hand: Hand) -> tuple[str, ...]:
    return hand.tiles


def win_hits(win: Win) -> list[Hit]:
    """Last Tile, Self-Drawn, Last Tile Draw/Claim, Out with Replacement Tile, Robbing the
    Kong: all for the winning tile."""
    t = (KINDS[win.tile],)
    out: list[Hit] = []
    if win.last_of_kind:
        out.append((f.LAST_TILE, t))
    if win.self_drawn:
        out.append((f.SELF_DRAWN, t))
        if win.last_tile:
            out.append((f.LAST_TILE_DRAW, t))
        if win.replacement:
            out.append((f.OUT_WITH_REPLACEMENT_TILE, t))
    else:
        if win.last_tile:
            out.append((f.LAST_TILE_CLAIM, t))
        if win.robbed:
            out.append((f.ROBBING_THE_KONG, t))
    return out


def _bits(kinds: object) -> int:
    return sum(1 << k for k in kinds)  # type: ignore[attr-defined]


# The kinds as bit masks over the 34 kinds (bit k: kind k), tested against Hand.mask.
SUIT_BITS = tuple(_bits(range(s * 9, s * 9 + 9)) for s in range(3))
_WIND_BITS, _DRAGON_BITS = _bits(range(27, 31)), _bits(range(31, 34))
_HONOUR_BITS = _WIND_BITS | _DRAGON_BITS
_TERMINAL_BITS = _bits(_TERMINALS)
_SIMPLE_BITS = _bits(range(27)) & ~_TERMINAL_BITS
_GREEN_BITS, _REVERSIBLE_BITS = _bits(_GREEN), _bits(_REVERSIBLE)
_RANKS = 0x1FF  # the nine ranks of a suit, as bits
_FIVES = (4, 13, 22)  # 5b 5c 5d: the pair of the terminal-chow hands
_DRAGONS, _WINDS = (31, 32, 33), (27, 28, 29, 30)


def suit_hits(hand: Hand) -> list[Hit]:
    """No Honors, One Voided Suit, Half Flush, Full Flush, All Types."""
    mask = hand.mask
    tiles = all_tiles(hand)
    present = sum(1 for bits in SUIT_BITS if mask & bits)
    winds, dragons = mask & _WIND_BITS, mask & _DRAGON_BITS
    honours = winds or dragons
    out: list[Hit] = []
    if present == 1:
        out.append((f.HALF_FLUSH if honours else f.FULL_FLUSH, tiles))
    elif present == 2:
        out.append((f.ONE_VOIDED_SUIT, tiles))
    if not honours and present != 1:
        out.append((f.NO_HONORS, tiles))
    if present == 3 and winds and dragons:
        out.append((f.ALL_TYPES, tiles))
    return out


def tile_hits(hand: Hand) -> list[Hit]:
    """All Simples, Reversible Tiles, All Green, All Honors, All Terminals, All Terminals and
    Honors; then Upper/Middle/Lower Tiles, Upper/Lower Four."""
    mask = hand.mask
    tiles = all_tiles(hand)
    out: list[Hit] = []
    simples = not mask & ~_SIMPLE_BITS
    if simples:
        out.append((f.ALL_SIMPLES, tiles))
    if not mask & ~_REVERSIBLE_BITS:
        out.append((f.REVERSIBLE_TILES, tiles))
    if not mask & ~_GREEN_BITS:
        out.append((f.ALL_GREEN, tiles))
    if not simples:
        if not mask & ~_HONOUR_BITS:
            out.append((f.ALL_HONORS, tiles))
        elif not mask & ~_TERMINAL_BITS:
            out.append((f.ALL_TERMINALS, tiles))
        elif not mask & ~(_HONOUR_BITS | _TERMINAL_BITS):
            out.append((f.ALL_TERMINALS_AND_HONORS, tiles))
    if not mask & _HONOUR_BITS:
        ranks = (mask | mask >> 9 | mask >> 18) & _RANKS  # bit r - 1: rank r held
        # the highest and the lowest rank held (ranks ^ (ranks - 1): the bits up to the lowest)
        top, bottom = ranks.bit_length(), (ranks ^ (ranks - 1)).bit_length()
        if top <= 4:
            out.append((f.LOWER_FOUR if top == 4 else f.LOWER_TILES, tiles))
        elif bottom >= 6:
            out.append((f.UPPER_FOUR if bottom == 6 else f.UPPER_TILES, tiles))
        elif bottom >= 4 and top <= 6:
            out.append((f.MIDDLE_TILES, tiles))
    return out


def tile_hog_hits(hand: Hand, kongs: Sequence[int]) -> list[Hit]:
    """Tile Hog: four tiles of a kind, not as a kong."""
    if 4 not in hand.counts:
        return []
    return [(f.TILE_HOG, (KINDS[k],) * 4) for k, n in enumerate(hand.counts)
            if n == 4 and k not in kongs]


def kong_hits(sets: Sequence[Set], concealed_pungs: Sequence[Set]) -> list[Hit]:
    """The kong fans and the concealed-pung fans (a concealed kong is a concealed pung)."""
    kongs = [s for s in sets if s.kind == KONG]
    melded = [s for s in kongs if s.exposed]
    hidden = [s for s in kongs if not s.exposed]
    tiles = tuple(t for s in kongs for t in s.tiles())
    out: list[Hit] = []
    n = len(kongs)
    if n == 4:
        out.append((f.FOUR_KONGS, tiles))
    elif n == 3:
        out.append((f.THREE_KONGS, tiles))
    elif n == 2 and not hidden:
        out.append((f.TWO_MELDED_KONGS, tiles))
    elif n == 2 and not melded:
        out.append((f.TWO_CONCEALED_KONGS, tiles))
    else:  # one kong, or a melded and a concealed one (mcr readings: no 5-fan combination)
        out.extend((f.MELDED_KONG, s.tiles()) for s in melded)
        out.extend((f.CONCEALED_KONG, s.tiles()) for s in hidden)
    total = len(concealed_pungs) + len(hidden)
    if total >= 2 and not (n == 2 and len(hidden) == 2 and total == 2):
        name = {2: f.TWO_CONCEALED_PUNGS, 3: f.THREE_CONCEALED_PUNGS,
                4: f.FOUR_CONCEALED_PUNGS}[total]
        out.append((name, tuple(t for s in (*concealed_pungs, *hidden) for t in s.tiles())))
    return out


def standard_hits(hand: Hand, sets: Sequence[Set], pair: int) -> list[Hit]:
    """Every fan of one arrangement before the exclusions (flowers apart), in no set order:
    the exclusions sort them."""
    win = hand.win
    chows: list[Set] = []
    pungs: list[Set] = []
    hidden_pungs: list[Set] = []
    for s in sets:
        if s.kind == CHOW:
            chows.append(s)
        else:
            pungs.append(s)
            if s.kind == PUNG and not s.exposed:
                hidden_pungs.append(s)
    if hidden_pungs and not win.self_drawn and not any(
        not c.meld and c.k <= win.tile <= c.k + 2 for c in chows
    ):  # the discard completed the pung: it counts as exposed
        hidden_pungs = [s for s in hidden_pungs if s.k != win.tile]
    hits = _per_hand(hand)
    hits += kong_hits(sets, hidden_pungs)
    if pungs:
        if len(pungs) == 4:
            hits.append((f.ALL_PUNGS, tuple(t for s in pungs for t in s.tiles())))
        combo = pung_hits([s.k for s in pungs])
        hits += combo
        hits += _single_pung_hits(hand, pungs, combo)
    if chows:
        hits += _chow_part(chows, pair)
    hits += _pair_hits(hits, pair, len(chows))
    hits += _pack_hits(sets, pair)
    hits += _wait_hits(hand, sets, pair)
    return hits


def _per_hand(hand: Hand) -> list[Hit]:
    """The fans the same in every arrangement: the win's, concealment, and the tiles' (suits,
    kinds, ranks, tile hogs: a kong is always a meld)."""
    # a memo: a miss works the same list out again (its mutants change no answer)
    found = cast("list[Hit] | None", hand.memo.get("per_hand"))  # pragma: no mutate
    if found is None:
        kongs = [m.k for m in hand.melds if m.kind == KONG]
        found = (win_hits(hand.win) + _concealment_hits(hand) + suit_hits(hand)
                 + tile_hits(hand) + tile_hog_hits(hand, kongs))
        hand.memo["per_hand"] = found  # pragma: no mutate
    return list(found)


def _single_pung_hits(hand: Hand, pungs: Sequence[Set], combo: list[Hit]) -> list[Hit]:
    """Dragon Pung, Prevalent Wind, Seat Wind, Pung of Terminals or Honors (not for a wind
    pung that scores as a wind, nor for the winds of Big Three Winds)."""
    big_three_winds = any(h[0] == f.BIG_THREE_WINDS for h in combo)
    out: list[Hit] = []
    for s in pungs:
        t = s.tiles()
        if s.k in _DRAGONS:
            out.append((f.DRAGON_PUNG, t))
        elif s.k in _WINDS:
            if s.k == hand.prevailing:
                out.append((f.PREVALENT_WIND, t))
            if s.k == hand.seat:
                out.append((f.SEAT_WIND, t))
            if s.k not in (hand.prevailing, hand.seat) and not big_three_winds:
                out.append((f.PUNG_OF_TERMINALS_OR_HONORS, t))
        elif s.k in _TERMINALS:
            out.append((f.PUNG_OF_TERMINALS_OR_HONORS, t))
    return out


def _chow_part(chows: Sequence[Set], pair: int) -> list[Hit]:
    lows = [c.k for c in chows]
    if len(lows) == 4 and pair in _FIVES:
        tiles = tuple(t for c in chows for t in c.tiles()) + (KINDS[pair],) * 2
        suits = [lo // 9 for lo in lows]
        ranks = sorted(lo % 9 for lo in lows)
        if ranks == [0, 0, 6, 6]:
            ps = _FIVES.index(pair)  # the pair's suit
            if all(s == ps for s in suits):
                return [(f.PURE_TERMINAL_CHOWS, tiles)]
            if len(set(lows)) == 4 and ps not in suits:  # four different chows
                return [(f.THREE_SUITED_TERMINAL_CHOWS, tiles)]
    return chow_hits(lows)


def _pair_hits(hits: list[Hit], pair: int, chows: int) -> list[Hit]:
    """All Chows; the pair turns Two Dragon Pungs into Little Three Dragons and Big Three
    Winds into Little Four Winds (the struck fans go from ``hits``)."""
    pt = (KINDS[pair],) * 2
    if chows == 4:
        return [(f.ALL_CHOWS, pt)] if pair < 27 else []
    for old, new, kinds in ((f.TWO_DRAGON_PUNGS, f.LITTLE_THREE_DRAGONS, _DRAGONS),
                            (f.BIG_THREE_WINDS, f.LITTLE_FOUR_WINDS, _WINDS)):
        found = [h for h in hits if h[0] == old]
        if found and pair in kinds:
            hits.remove(found[0])
            return [(new, found[0][1] + pt)]
    return []


def _melded_hand(hand: Hand) -> bool:
    """Melded Hand: four claimed sets, won on a discard."""
    return not hand.win.self_drawn and sum(1 for m in hand.melds if m.exposed) == 4


def _concealment_hits(hand: Hand) -> list[Hit]:
    """Fully Concealed Hand / Concealed Hand (no claimed set), Melded Hand (four claimed sets,
    won on a discard)."""
    exposed = any(m.exposed for m in hand.melds)
    t = (KINDS[hand.win.tile],)
    if not exposed:
        return [(f.FULLY_CONCEALED_HAND if hand.win.self_drawn else f.CONCEALED_HAND, t)]
    if _melded_hand(hand):
        return [(f.MELDED_HAND, t)]
    return []


def _pack_table(test: Callable[[int, int], bool]) -> tuple[tuple[bool, ...], ...]:
    """A set property as a table: [kind][k] (a pair looks itself up as a pung)."""
    return tuple(tuple(test(kind, k) for k in range(34)) for kind in (CHOW, PUNG, KONG))


#: Outside Hand, All Fives, All Even Pungs: a property every set and the pair must have
_PACKS = (
    (f.OUTSIDE_HAND, _pack_table(
        lambda kind, k: k >= 27 or (k % 9 in (0, 6) if kind == CHOW else k in _TERMINALS))),
    (f.ALL_FIVES, _pack_table(
        lambda kind, k: k < 27 and (k % 9 in (2, 3, 4) if kind == CHOW else k % 9 == 4))),
    (f.ALL_EVEN_PUNGS, _pack_table(
        lambda kind, k: k < 27 and kind != CHOW and k % 9 in (1, 3, 5, 7))),
)


def _pack_hits(sets: Sequence[Set], pair: int) -> list[Hit]:
    """Outside Hand, All Fives, All Even Pungs: a property of every set and the pair."""
    for name, table in _PACKS:
        if table[PUNG][pair] and all(table[s.kind][s.k] for s in sets):
            tiles = tuple(t for s in sets for t in s.tiles()) + (KINDS[pair],) * 2
            return [(name, tiles)]
    return []


def _wait_hits(hand: Hand, sets: Sequence[Set], pair: int) -> list[Hit]:
    """Edge Wait, Closed Wait or Single Wait, for a win that waited on one kind only (not with
    Melded Hand, which implies a single wait; Four Kongs does too, and its exclusions strike
    the Single Wait)."""
    w = hand.win.tile
    own = [s.k for s in sets if s.kind == CHOW and not s.meld]  # the concealed chows' lows
    edge = any(w in (k, k + 2) for k in own)
    closed = any(w == k + 1 for k in own)
    if not (edge or closed or pair == w):
        return []
    if _melded_hand(hand) or not waited_on_one(hand):
        return []
    name = f.EDGE_WAIT if edge else f.CLOSED_WAIT if closed else f.SINGLE_WAIT
    return [(name, (KINDS[w],))]
