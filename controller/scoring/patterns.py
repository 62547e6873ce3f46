"""The shared library of hand patterns that rule sets point their items at.

A pattern looks at a HandView (one arrangement of one hand) and answers the tiles each
occurrence is for: one tuple per occurrence, an empty list when it does not apply.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from controller.scoring.arrange import Group
from controller.scoring.rules import Pattern
from controller.tiles import (
    DRAGON_CODES,
    KIND_INDEX,
    KINDS,
    WIND_CODES,
    Tile,
    is_dragon,
    is_simple,
    is_terminal_or_honour,
)

Hit = list[tuple[Tile, ...]]
SELF_DRAWN = ("wall", "replacement", "dealt")


class HandFacts(NamedTuple):
    """What is true of a hand whatever its arrangement."""

    rack: tuple[Tile, ...]  # the concealed tiles
    melds: tuple[Group, ...]  # the sets on the table
    bonus: tuple[Tile, ...]
    seat: Tile  # seat wind code
    prevailing: Tile  # prevailing wind code
    mahjong: bool
    winning_tile: Tile | None
    win_source: str | None
    last_tile: bool
    first_discard: bool
    flags: frozenset[str]
    waits_before: int  # how many tile kinds the winner's 13 tiles waited on
    suits: frozenset[str]  # suits present ("b", "c", "d")
    honours: bool  # any wind or dragon present
    exposed_melds: bool  # any set on the table that is not a concealed kong
    majors: int  # how many terminals and honours
    ones_nines: int  # how many 1s and 9s
    size: int  # how many tiles (bonus tiles aside)

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """Every tile except bonus tiles, in KINDS order (made when an item asks: few do)."""
        tiles = list(self.rack)
        for g in self.melds:
            tiles.extend(g.tiles)
        tiles.sort(key=KIND_INDEX.__getitem__)
        return tuple(tiles)


class Situation(NamedTuple):
    """The few facts of a hand that decide whether an item can apply at all. It takes few
    values, so the engine keeps, per situation, the list of items worth trying (see gated)."""

    source: str | None
    bonus: bool
    last_tile: bool
    first_discard: bool
    flags: frozenset[str]
    dealer: bool
    melds: bool  # any sets on the table
    exposed: bool  # any exposed ones
    suits: frozenset[str]
    honours: bool
    simples_only: bool
    majors_only: bool
    ones_nines_only: bool
    green_only: bool
    dragons: int  # dragon tiles
    winds: int  # wind tiles
    single_wait: bool
    multi_wait: bool


Gate = Callable[[Situation], bool]


def gated(gate: Gate, pattern: Pattern) -> Pattern:
    """Mark a pattern as able to apply only in situations that pass ``gate``."""
    pattern.gate = gate  # type: ignore[attr-defined]
    return pattern


class Shape(NamedTuple):
    """The few facts of an arrangement that decide whether an arrangement item can apply at
    all (see shaped); like Situation, it takes few values."""

    special: str | None
    standard: bool
    chows: int
    pungs: int  # pungs and kongs
    concealed_pungs: int
    won: str | None  # the kind of group the winning tile completed


class HandView:
    """One arrangement of a hand: its groups (melds first), and the facts of the hand."""

    __slots__ = ("facts", "groups", "special", "sets", "pairs", "chows", "pungs",
                 "concealed_pungs", "standard", "won_group", "shape")

    def __init__(self, facts: HandFacts, groups: tuple[Group, ...], special: str | None) -> None:
        self.facts = facts
        self.groups = groups
        self.special = special
        chows: list[Group] = []
        pungs: list[Group] = []  # pungs and kongs
        pairs: list[Group] = []
        concealed_pungs: list[Group] = []
        won = None
        for g in groups:  # fields by position: kind, tiles, concealed, melded, won
            kind = g[0]
            if kind == "chow":
                chows.append(g)
            elif kind == "pair":
                pairs.append(g)
            elif kind != "thirteen_orphans":
                pungs.append(g)
                if g[2]:
                    concealed_pungs.append(g)
            if g[4]:
                won = g
        self.won_group: Group | None = won
        self.chows = chows
        self.pungs = pungs
        self.concealed_pungs = concealed_pungs
        self.sets = chows + pungs
        self.pairs = pairs
        #: four sets and a pair (not a special hand, not a partial one)
        self.standard = standard = (
            special is None and len(chows) + len(pungs) == 4 and len(pairs) == 1
        )
        self.shape = (special, standard, len(chows), len(pungs), len(concealed_pungs),
                      won[0] if won else None)


ShapeGate = Callable[[Shape], bool]


def shaped(gate: ShapeGate, pattern: Pattern) -> Pattern:
    """Mark an arrangement pattern as able to apply only to arrangements whose Shape passes
    ``gate`` (a necessary condition of the pattern, checked once per shape)."""
    pattern.shape_gate = gate  # type: ignore[attr-defined]
    return pattern


def _pungs(v: HandView) -> list[Group]:
    return v.pungs


def _whole(v: HandView) -> Hit:
    return [v.facts.tiles]


def scoped(scope: str, pattern: Pattern) -> Pattern:
    """Mark how much a pattern looks at, so the engine can reuse answers: ``group`` (one set or
    pair and the seat winds: the same answer wherever the group appears) or ``hand`` (only the
    HandFacts: the same answer for every arrangement of the hand)."""
    pattern.scope = scope  # type: ignore[attr-defined]
    return pattern


def hand_if(test: Callable[[HandView], bool], tiles: Callable[[HandView], Hit] = _whole) -> Pattern:
    """A whole-hand item: reported once, for all the hand's tiles (or ``tiles``) when ``test``."""

    def pattern(v: HandView) -> Hit:
        return tiles(v) if test(v) else []

    return pattern


def fact_if(test: Callable[[HandView], bool], tiles: Callable[[HandView], Hit] = _whole) -> Pattern:
    """Like hand_if, for a test that looks only at the HandFacts (not the arrangement)."""
    return scoped("hand", hand_if(test, tiles))


def gate_decides(tiles: Callable[[HandView], Hit] | None = None) -> Pattern:
    """A whole-hand item that applies whenever its gate lets it be tried: reported once, for
    all the hand's tiles (or ``tiles``). Same as fact_if(lambda v: True, tiles), one call."""
    if tiles is not None:
        return scoped("hand", lambda v: tiles(v))  # a new function: annotations are per item

    def pattern(v: HandView) -> Hit:
        return [v.facts.tiles]

    return scoped("hand", pattern)


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
single_wait = won_if(lambda s: s.single_wait)
single_wait.needs_waits = True  # type: ignore[attr-defined]


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


completes_chow = shaped(_won("chow"), hand_if(lambda v: _won_kind(v) == "chow", _won_tiles))
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


def _no_chow(s: Shape) -> bool:
    return s.standard and s.chows == 0


worthless = shaped(_four_chows, hand_if(is_worthless))
worthless_two_waits = gated(lambda s: s.multi_wait, shaped(_four_chows, hand_if(is_worthless)))
worthless_two_waits.needs_waits = True  # type: ignore[attr-defined]
no_chow = shaped(_no_chow, hand_if(lambda v: v.standard and not v.chows))
all_simples = gated(lambda s: s.simples_only, gate_decides())
only_terminals_and_honours = gated(lambda s: s.majors_only, gate_decides())
_MAJOR = frozenset(t for t in KINDS if is_terminal_or_honour(t))
def _majors_everywhere(v: HandView) -> bool:
    if not v.standard:
        return False
    for g in v.groups:
        if g.tiles[0] not in _MAJOR and g.tiles[-1] not in _MAJOR:
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
seven_pairs = gated(lambda s: not s.melds, shaped(
    lambda s: s.special == "seven_pairs", hand_if(lambda v: v.special == "seven_pairs")
))
thirteen_orphans = gated(
    lambda s: not s.melds and s.majors_only,
    shaped(lambda s: s.special == "thirteen_orphans",
           hand_if(lambda v: v.special == "thirteen_orphans")),
)


def concealed_pungs(n: int) -> Pattern:
    """At least ``n`` concealed pungs or kongs."""
    return shaped(lambda s: s.concealed_pungs >= n, hand_if(
        lambda v: len(v.concealed_pungs) >= n,
        lambda v: [tuple(t for g in v.concealed_pungs for t in g.tiles)],
    ))


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

    return pattern


three_little_dragons = gated(lambda s: s.dragons >= 8, honour_pungs(DRAGON_CODES, 2, 1))
three_great_dragons = gated(lambda s: s.dragons >= 9, honour_pungs(DRAGON_CODES, 3, 0))
little_four_winds = gated(lambda s: s.winds >= 11, honour_pungs(WIND_CODES, 3, 1))
four_winds = gated(lambda s: s.winds >= 12, honour_pungs(WIND_CODES, 4, 0))


def _same_chow_three_suits(v: HandView) -> Hit:
    if len(v.chows) < 3:
        return []
    starts = {g.tiles[0] for g in v.chows}
    for t in starts:
        r = t[0]
        if r + "b" in starts and r + "c" in starts and r + "d" in starts:
            return [tuple(f"{int(r) + i}{s}" for s in "bcd" for i in range(3))]
    return []


def _straight(v: HandView) -> Hit:
    if len(v.chows) < 3:
        return []
    starts = {g.tiles[0] for g in v.chows}
    for s in "bcd":
        if "1" + s in starts and "4" + s in starts and "7" + s in starts:
            return [tuple(f"{n}{s}" for n in range(1, 10))]
    return []


def _three_chows(s: Shape) -> bool:
    return s.chows >= 3


same_chow_three_suits = gated(
    lambda s: len(s.suits) == 3, shaped(_three_chows, _same_chow_three_suits)
)
chows_123_456_789: Pattern = shaped(_three_chows, _straight)
