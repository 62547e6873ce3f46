"""What patterns look at: the facts of a hand (HandFacts), one arrangement of it (HandView),
and the small summaries that gate items (Situation for the hand, Shape for an arrangement)."""

from __future__ import annotations

from typing import NamedTuple

from controller.scoring.arrange import Group
from controller.tiles import KIND_INDEX, Tile


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
    waits_before: int  # how many kinds the winner's 13 tiles waited on (2: two or more)
    suits: frozenset[str]  # suits present ("b", "c", "d")
    honours: bool  # any wind or dragon present
    exposed_melds: bool  # any set on the table that is not a concealed kong
    majors: int  # how many terminals and honours
    ones_nines: int  # how many 1s and 9s
    size: int  # how many tiles (bonus tiles aside)
    #: a non-winner's: the limit hands (keys) and items (names) its 13 tiles were calling for
    calling: frozenset[str]

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
    calling: frozenset[str]  # as HandFacts.calling


#: a Situation's fields as a plain tuple, in its order: what the engine makes for every hand
#: (a NamedTuple made by position costs a subtype's construction); split_rules makes the
#: Situation from it when the situation is new, and a Situation equals its plain tuple
SituationKey = tuple[object, ...]


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

    __slots__ = ("facts", "groups", "special", "pairs", "chows", "pungs", "standard",
                 "won_group", "shape")

    def __init__(
        self, facts: HandFacts, groups: tuple[Group, ...], special: str | None,
        won: Group | None = None,
    ) -> None:
        """``won``: the group of ``groups`` the winning tile completed, when the caller knows
        it; else it is looked for."""
        self.facts = facts
        self.groups = groups
        self.special = special
        chows: list[Group] = []
        pungs: list[Group] = []  # pungs and kongs
        pairs: list[Group] = []
        concealed_pungs = 0  # counted: the list is made when a pattern asks
        for g in groups:  # fields by position: kind, tiles, concealed, melded, won
            kind = g[0]
            if kind == "chow":
                chows.append(g)
            elif kind == "pair":
                pairs.append(g)
            elif kind == "pung" or kind == "kong":  # noqa: PLR1714 - cheaper than a tuple
                pungs.append(g)
                if g[2]:
                    concealed_pungs += 1
        if won is None:
            for g in groups:
                if g[4]:
                    won = g
        self.won_group: Group | None = won
        self.chows = chows
        self.pungs = pungs
        self.pairs = pairs
        n_chows, n_pungs = len(chows), len(pungs)
        #: four sets and a pair (not a special hand, not a partial one)
        self.standard = standard = (
            special is None and n_chows + n_pungs == 4 and len(pairs) == 1
        )
        self.shape = (special, standard, n_chows, n_pungs, concealed_pungs,
                      won[0] if won else None)

    @property
    def sets(self) -> list[Group]:
        """The chows, then the pungs and kongs (made when a pattern asks: few do, so a view
        does not keep the list)."""
        return self.chows + self.pungs

    @property
    def concealed_pungs(self) -> list[Group]:
        """The concealed pungs and kongs (made when a pattern asks: the shape counts them)."""
        return [g for g in self.pungs if g[2]]
