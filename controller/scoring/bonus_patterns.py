"""Hand patterns of bonus tiles (flowers and seasons), shared by the rule sets."""

from __future__ import annotations

from collections.abc import Callable

from controller.scoring.patterns import fact_if, gated, scoped
from controller.scoring.rules import Pattern
from controller.scoring.view import HandView, Situation
from controller.tiles import Tile, bonus_wind, is_flower, is_season, wind_name


def _has_bonus(s: Situation) -> bool:
    return s.bonus


# never tried on a hand without bonus tiles (they would find none)
each_bonus = gated(_has_bonus, scoped("hand", lambda v: [(t,) for t in v.facts.bonus]))
each_flower = gated(
    _has_bonus, scoped("hand", lambda v: [(t,) for t in v.facts.bonus if is_flower(t)])
)
each_season = gated(
    _has_bonus, scoped("hand", lambda v: [(t,) for t in v.facts.bonus if is_season(t)])
)


def _own(v: HandView, test: Callable[[Tile], bool]) -> list[Tile]:
    own = wind_name(v.facts.seat)
    return [t for t in v.facts.bonus if test(t) and bonus_wind(t) == own]


def _group(v: HandView, test: Callable[[Tile], bool]) -> tuple[Tile, ...]:
    return tuple(t for t in v.facts.bonus if test(t))


def all_of(test: Callable[[Tile], bool]) -> Pattern:
    every = fact_if(lambda v: len(_group(v, test)) == 4, lambda v: [_group(v, test)])
    return gated(_has_bonus, every)


def own_of(test: Callable[[Tile], bool]) -> Pattern:
    own = fact_if(lambda v: bool(_own(v, test)), lambda v: [tuple(_own(v, test))])
    return gated(_has_bonus, own)


def own_unless_all_of(test: Callable[[Tile], bool]) -> Pattern:
    """The own tile of a group, when the group is not complete (then the group counts)."""
    return gated(_has_bonus, fact_if(
        lambda v: bool(_own(v, test)) and len(_group(v, test)) < 4,
        lambda v: [tuple(_own(v, test))],
    ))


all_flowers = all_of(is_flower)
all_seasons = all_of(is_season)
own_flower = own_of(is_flower)
own_season = own_of(is_season)
own_flower_unless_all = own_unless_all_of(is_flower)
own_season_unless_all = own_unless_all_of(is_season)
all_eight_bonus = gated(
    _has_bonus, fact_if(lambda v: len(v.facts.bonus) == 8, lambda v: [v.facts.bonus])
)
own_flower_and_season = gated(_has_bonus, fact_if(
    lambda v: bool(_own(v, is_flower)) and bool(_own(v, is_season)),
    lambda v: [tuple(_own(v, is_flower) + _own(v, is_season))],
))
