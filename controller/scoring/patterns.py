"""The shared library of hand patterns that rule sets point their items at.

A pattern looks at a HandView (one arrangement of one hand) and answers the tiles each
occurrence is for: one tuple per occurrence, an empty list when it does not apply.
"""

from __future__ import annotations

from collections.abc import Callable

from controller.scoring.arrange import Group
from controller.scoring.rules import Hit, Pattern, Scope, with_meta
from controller.scoring.view import HandView, Shape, Situation
from controller.tiles import (
    DRAGON_CODES,
    KINDS,
    WIND_CODES,
    Tile,
    is_dragon,
    is_simple,
    is_terminal_or_honour,
)

SELF_DRAWN = ("wall", "replacement", "dealt")

Gate = Callable[[Situation], bool]
ShapeGate = Callable[[Shape], bool]
Fn = Callable[[HandView], Hit]


def pattern_of(fn: Fn | Pattern) -> Pattern:
    """``fn`` as a Pattern (a Pattern stays as it is)."""
    return fn if isinstance(fn, Pattern) else Pattern(fn)


def gated(gate: Gate, pattern: Fn | Pattern) -> Pattern:
    """A pattern that can apply only in situations that pass ``gate``."""
    return with_meta(pattern_of(pattern), gate=gate)


def shaped(gate: ShapeGate, pattern: Fn | Pattern, decides: bool = False) -> Pattern:
    """An arrangement pattern that can apply only to arrangements whose Shape passes ``gate``
    (a necessary condition of the pattern, checked once per shape). ``decides``: the gate is
    also sufficient and the pattern then answers exactly one occurrence, so the scorer counts
    it without a call (one_hit); the pattern still tests for itself when called."""
    made = with_meta(pattern_of(pattern), shape_gate=gate)
    return with_meta(made, one_hit=True) if decides else made


def _pungs(v: HandView) -> list[Group]:
    return v.pungs


def _whole(v: HandView) -> Hit:
    return [v.facts.tiles]


def scoped(scope: Scope, pattern: Fn | Pattern) -> Pattern:
    """How much a pattern looks at, so the engine can reuse answers: ``group`` (one set or
    pair and the seat winds: the same answer wherever the group appears) or ``hand`` (only the
    HandFacts: the same answer for every arrangement of the hand)."""
    return with_meta(pattern_of(pattern), scope=scope)


def hand_if(test: Callable[[HandView], bool], tiles: Fn = _whole) -> Pattern:
    """A whole-hand item: reported once, for all the hand's tiles (or ``tiles``: one
    occurrence whenever ``test`` passes) when ``test``."""

    def pattern(v: HandView) -> Hit:
        return tiles(v) if test(v) else []

    return Pattern(pattern, test=test)  # the scorer counts without the tiles


def fact_if(test: Callable[[HandView], bool], tiles: Fn = _whole) -> Pattern:
    """Like hand_if, for a test that looks only at the HandFacts (not the arrangement)."""
    return scoped("hand", hand_if(test, tiles))


def gate_decides(tiles: Fn = _whole) -> Pattern:
    """A whole-hand item that applies whenever its gate lets it be tried: reported once, for
    all the hand's tiles (or ``tiles``). Same as fact_if(lambda v: True, tiles), one call:
    exactly one occurrence once tried, so the scorer counts it without making its tiles."""
    return Pattern(tiles, scope="hand", one_hit=True)


def winning_tile(v: HandView) -> Hit:
    return [(v.facts.winning_tile,)] if v.facts.winning_tile else [()]


def won_if(gate: Gate) -> Pattern:
    """A winner's item about how the hand was won (decided by the situation alone): reported
    for the winning tile."""
    return gated(gate, gate_decides(winning_tile))


# --- sets and pairs -----------------------------------------------------------------------------


def sets_if(test: Callable[[HandView, Group], bool]) -> Pattern:
    """A per-set item: one occurrence for each set that passes ``test``."""

    def pattern(v: HandView) -> Hit:
        return [g.tiles for g in v.sets if test(v, g)]

    return scoped("group", pattern)


def pairs_if(test: Callable[[HandView, Tile], bool]) -> Pattern:
    """A per-pair item (seven pairs has seven pairs): one occurrence per pair of a kind."""

    def pattern(v: HandView) -> Hit:
        return [g.tiles for g in v.pairs if test(v, g.tiles[0])]

    return scoped("group", pattern)


def pung_points(kind: str, concealed: bool, simples: bool) -> Pattern:
    """Pungs (or kongs) by exposure and by simples vs terminals-or-honours."""
    return sets_if(
        lambda v, g: g.kind == kind
        and g.concealed == concealed
        and is_simple(g.tiles[0]) == simples
    )


def _is_pung(g: Group) -> bool:
    return g.kind in ("pung", "kong")


pung_of_dragons = sets_if(lambda v, g: _is_pung(g) and is_dragon(g.tiles[0]))
pung_of_own_wind = sets_if(lambda v, g: _is_pung(g) and g.tiles[0] == v.facts.seat)
pung_of_prevailing_wind = sets_if(lambda v, g: _is_pung(g) and g.tiles[0] == v.facts.prevailing)

pair_of_dragons = pairs_if(lambda v, t: is_dragon(t))
pair_of_own_wind = pairs_if(lambda v, t: t == v.facts.seat)
pair_of_prevailing_wind = pairs_if(lambda v, t: t == v.facts.prevailing)
pair_of_own_wind_only = pairs_if(lambda v, t: t == v.facts.seat != v.facts.prevailing)
pair_of_prevailing_wind_only = pairs_if(lambda v, t: t == v.facts.prevailing != v.facts.seat)
pair_of_own_prevailing_wind = pairs_if(lambda v, t: t == v.facts.seat == v.facts.prevailing)


def scoring_pair(v: HandView, t: Tile) -> bool:
    """A pair that scores points: dragons, own wind, prevailing wind."""
    return is_dragon(t) or t in (v.facts.seat, v.facts.prevailing)


# --- how the hand was won -----------------------------------------------------------------------


def source_is(*sources: str) -> Gate:
    return lambda s: s.source in sources


going_mahjong = won_if(lambda s: True)
robbing_kong = won_if(source_is("robbed_kong"))
from_live_wall = won_if(source_is("wall", "dealt"))
from_dead_wall = won_if(source_is("replacement"))
self_drawn = won_if(source_is(*SELF_DRAWN))
last_tile_drawn = won_if(lambda s: s.last_tile and s.source == "wall")
last_tile_discarded = won_if(lambda s: s.last_tile and s.source == "discard")
winner_is_dealer = won_if(lambda s: s.dealer)
single_wait = with_meta(won_if(lambda s: s.single_wait), needs_waits=True)


def flag(name: str) -> Pattern:
    return won_if(lambda s: name in s.flags)


def _won_kind(v: HandView) -> str | None:
    g = v.won_group
    return g.kind if g else None


def _won_pair_tile(v: HandView) -> Tile | None:
    g = v.won_group
    return g.tiles[0] if g and g.kind == "pair" else None


def _won_tiles(v: HandView) -> Hit:
    g = v.won_group
    return [g.tiles] if g else []


def _won(kind: str) -> ShapeGate:
    return lambda s: s.won == kind


completes_chow = shaped(
    _won("chow"), hand_if(lambda v: _won_kind(v) == "chow", _won_tiles), decides=True
)
completes_pair_of_simples = shaped(
    _won("pair"), hand_if(lambda v: is_simple(_won_pair_tile(v) or "ew"), _won_tiles)
)
completes_pair_of_terminals_or_honours = shaped(_won("pair"), hand_if(
    lambda v: _won_pair_tile(v) is not None and is_terminal_or_honour(_won_pair_tile(v) or ""),
    _won_tiles,
))
no_exposed_melds = gated(lambda s: not s.exposed, gate_decides())
concealed_from_wall = gated(
    lambda s: not s.exposed and s.source in ("wall", "dealt"), gate_decides()
)
all_groups_concealed = gated(
    lambda s: not s.exposed and s.source in SELF_DRAWN,
    hand_if(lambda v: all(g.concealed for g in v.groups)),
)


# --- the shape of the hand ----------------------------------------------------------------------


def is_worthless(v: HandView) -> bool:
    """Only chows and a pair that scores nothing (a standard hand)."""
    return (
        v.standard and len(v.chows) == 4 and not scoring_pair(v, v.pairs[0].tiles[0])
    )


def _four_chows(s: Shape) -> bool:
    return s.standard and s.chows == 4


def standard_no_chow(s: Shape) -> bool:
    return s.standard and s.chows == 0


worthless = shaped(_four_chows, hand_if(is_worthless))
worthless_two_waits = with_meta(
    gated(lambda s: s.multi_wait, shaped(_four_chows, hand_if(is_worthless))), needs_waits=True
)
no_chow = shaped(standard_no_chow, hand_if(lambda v: v.standard and not v.chows), decides=True)
all_simples = gated(lambda s: s.simples_only, gate_decides())
only_terminals_and_honours = gated(lambda s: s.majors_only, gate_decides())
_MAJOR = frozenset(t for t in KINDS if is_terminal_or_honour(t))
def _majors_everywhere(v: HandView) -> bool:
    if not v.standard:
        return False
    for g in v.groups:
        tiles = g[1]  # by position: this runs for most hands
        if tiles[0] not in _MAJOR and tiles[-1] not in _MAJOR:
            return False
    return True


terminal_or_honour_in_each_group = gated(
    lambda s: not s.simples_only, shaped(lambda s: s.standard, hand_if(_majors_everywhere))
)
one_suit_with_honours = gated(
    lambda s: len(s.suits) == 1 and s.honours, gate_decides()
)
one_suit_only = gated(lambda s: len(s.suits) == 1 and not s.honours, gate_decides())
only_honours = gated(lambda s: not s.suits, gate_decides())
only_ones_and_nines = gated(lambda s: s.ones_nines_only, gate_decides())
def special_hand(name: str, gate: Gate = lambda s: not s.melds) -> Pattern:
    """The arrangement is the special hand ``name`` of special.SPECIAL_HANDS (never with
    melds; ``gate``: a further necessary condition on the situation)."""
    return gated(gate, shaped(
        lambda s: s.special == name, hand_if(lambda v: v.special == name), decides=True
    ))


seven_pairs = special_hand("seven_pairs")
thirteen_orphans = special_hand("thirteen_orphans", lambda s: not s.melds and s.majors_only)


def concealed_pungs(n: int) -> Pattern:
    """At least ``n`` concealed pungs or kongs."""
    return shaped(lambda s: s.concealed_pungs >= n, hand_if(
        lambda v: len(v.concealed_pungs) >= n,
        lambda v: [tuple(t for g in v.concealed_pungs for t in g.tiles)],
    ), decides=True)


def _honour_sets(v: HandView, codes: tuple[Tile, ...]) -> tuple[list[Group], list[Group]]:
    return (
        [g for g in _pungs(v) if g.tiles[0] in codes],
        [g for g in v.pairs if g.tiles[0] in codes],
    )


def honour_pungs(codes: tuple[Tile, ...], pungs: int, pairs: int) -> Pattern:
    """Exactly ``pungs`` pungs/kongs of ``codes`` (dragons or winds) and ``pairs`` pairs of them."""

    def pattern(v: HandView) -> Hit:
        ps, prs = _honour_sets(v, codes)
        if len(ps) == pungs and len(prs) == pairs and v.special is None:
            return [tuple(t for g in ps + prs for t in g.tiles)]
        return []

    return Pattern(pattern)


three_little_dragons = gated(lambda s: s.dragons >= 8, honour_pungs(DRAGON_CODES, 2, 1))
three_great_dragons = gated(lambda s: s.dragons >= 9, honour_pungs(DRAGON_CODES, 3, 0))
little_four_winds = gated(lambda s: s.winds >= 11, honour_pungs(WIND_CODES, 3, 1))
four_winds = gated(lambda s: s.winds >= 12, honour_pungs(WIND_CODES, 4, 0))


# (the lowest tiles of the chows needed, the tiles reported), made once
_SAME_CHOWS = tuple(
    ((f"{r}b", f"{r}c", f"{r}d"), tuple(f"{r + i}{s}" for s in "bcd" for i in range(3)))
    for r in range(1, 8)
)
_STRAIGHTS = tuple(
    ((f"1{s}", f"4{s}", f"7{s}"), tuple(f"{n}{s}" for n in range(1, 10))) for s in "bcd"
)


ChowStarts = tuple[tuple[tuple[Tile, Tile, Tile], tuple[Tile, ...]], ...]


def _chow_starts(v: HandView, wanted: ChowStarts) -> Hit:
    """The tiles of the first of ``wanted`` whose three chows (by lowest tile) are all held."""
    chows = v.chows
    if len(chows) < 3:
        return []
    starts = {g[1][0] for g in chows}  # by position: kind, tiles, ...
    for (a, b, c), tiles in wanted:
        if a in starts and b in starts and c in starts:
            return [tiles]
    return []


def _same_chow_three_suits(v: HandView) -> Hit:
    return _chow_starts(v, _SAME_CHOWS)


def _straight(v: HandView) -> Hit:
    return _chow_starts(v, _STRAIGHTS)


def _three_chows(s: Shape) -> bool:
    return s.chows >= 3


same_chow_three_suits = gated(
    lambda s: len(s.suits) == 3, shaped(_three_chows, _same_chow_three_suits)
)
chows_123_456_789: Pattern = shaped(_three_chows, _straight)
