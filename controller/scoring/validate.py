"""Checks on a HandInput before it is scored: codes, sets, tile counts, the winner's facts.

Every failure is a ScoringError whose message names the tile, set or field at fault.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from functools import cache

from controller.scoring.arrange import Group, Parts, counts_of, meld_group, parts_of
from controller.scoring.model import FLAGS, WIN_SOURCES, HandInput, ScoringError
from controller.scoring.rules import RuleSet
from controller.tiles import (
    KIND_INDEX,
    WINDS,
    Meld,
    Tile,
    TileError,
    check_tile,
    copies_allowed,
    format_tiles,
    is_bonus,
    is_suited,
    sort_tiles,
    wind_code,
)


class CheckedHand:
    """A HandInput that passed the checks, with melds normalised (chows sorted).

    A plain class with slots, not a NamedTuple: the scorer reads its fields a dozen times a
    hand, and on CPython 3.11 a slot is read several times faster than a NamedTuple field (a
    descriptor the interpreter does not specialise); made once per hand, it also costs less
    than a NamedTuple made by position."""

    __slots__ = ("seat", "prevailing", "melds", "hand", "bonus", "counts", "concealed_counts",
                 "groups", "parts")

    def __init__(  # noqa: PLR0913 - the fields, as check_input finds them
        self, seat: Tile, prevailing: Tile, melds: tuple[Meld, ...], hand: tuple[Tile, ...],
        bonus: tuple[Tile, ...], counts: list[int], concealed_counts: list[int],
        groups: tuple[Group, ...], parts: Parts,
    ) -> None:
        self.seat = seat
        self.prevailing = prevailing
        self.melds = melds
        self.hand = hand
        self.bonus = bonus
        self.counts = counts  # rack and melds over the 34 kinds
        self.concealed_counts = concealed_counts  # rack only
        self.groups = groups  # the melds as groups
        self.parts = parts  # concealed_counts by part (arrange.parts_of)


def _tile(value: object, where: str) -> Tile:
    try:
        return check_tile(value)
    except TileError as exc:
        raise ScoringError(f"{where}: {exc}") from None


def _wind(value: object, field: str) -> Tile:
    if value not in WINDS:
        raise ScoringError(f"{field} {value!r} is unknown: use east, south, west or north")
    return wind_code(str(value))


def check_meld(meld: Meld) -> Meld:
    """A meld that is a chow, pung or kong (a concealed one a kong); chows come back sorted."""
    try:
        return _checked_meld(tuple(meld.tiles), bool(meld.concealed))
    except TypeError:  # unhashable tiles: let the full check name them
        return _check_meld(tuple(meld.tiles), bool(meld.concealed))


@cache
def checked_group(tiles: tuple[Tile, ...], concealed: bool) -> Group:
    """A meld's tiles checked and made a Group (kept: melds repeat from hand to hand)."""
    return meld_group(_check_meld(tiles, concealed))


@cache
def _checked_meld(tiles: tuple[Tile, ...], concealed: bool) -> Meld:
    return _check_meld(tiles, concealed)


@cache
def _meld_and_group(
    tiles: tuple[Tile, ...], concealed: bool
) -> tuple[Meld, Group, tuple[int, ...], tuple[tuple[int, int], ...]]:
    """The meld checked, as a group, as kind indices and as (kind, copies) pairs."""
    meld = _check_meld(tiles, concealed)
    kinds = tuple(KIND_INDEX[t] for t in meld.tiles)
    copies = tuple((k, kinds.count(k)) for k in dict.fromkeys(kinds))  # a pung: one pair
    return meld, meld_group(meld), kinds, copies


def meld_kinds(meld: Meld) -> tuple[int, ...]:
    """A meld's kind indices (a chow's sorted), checked once per meld and kept; ScoringError
    when it is no set (TypeError for unhashable tiles)."""
    return _meld_and_group(tuple(meld.tiles), bool(meld.concealed))[2]


def _melds_and_groups(
    melds: Sequence[Meld],
) -> tuple[tuple[Meld, ...], tuple[Group, ...], list[tuple[tuple[int, int], ...]]]:
    """The melds checked (chows sorted), as groups and as (kind, copies) pairs; kept, as melds
    repeat between hands. Plain loops: this runs for every hand."""
    if not melds:
        return (), (), []
    made = _meld_and_group
    try:
        checked, groups, kinds = [], [], []
        for m in melds:
            meld, group, _, copies = made(tuple(m.tiles), True if m.concealed else False)
            checked.append(meld)
            groups.append(group)
            kinds.append(copies)
    except TypeError:  # unhashable tiles: let the full check name them
        for m in melds:
            _meld_and_group.__wrapped__(tuple(m.tiles), bool(m.concealed))
        raise
    return tuple(checked), tuple(groups), kinds


def _check_meld(raw: tuple[Tile, ...], concealed: bool) -> Meld:
    meld = Meld(raw, concealed)
    tiles = tuple(_tile(t, "meld") for t in meld.tiles)
    name = format_tiles(tiles) or "(empty)"
    if any(is_bonus(t) for t in tiles):
        raise ScoringError(f"meld {name} holds a bonus tile: flowers and seasons go in bonus")
    same = len(set(tiles)) == 1
    if len(tiles) == 4 and same:
        return Meld(tiles, bool(meld.concealed))
    if meld.concealed:
        raise ScoringError(
            f"meld {name} is marked concealed but is not a kong: only kongs are declared concealed"
        )
    if len(tiles) == 3 and same:
        return Meld(tiles, False)
    ordered = tuple(sort_tiles(tiles))
    if len(tiles) == 3 and _is_chow(ordered):
        return Meld(ordered, False)
    raise ScoringError(f"meld {name} is not a set: a set is a chow, a pung or a kong")


def _is_chow(t: Sequence[Tile]) -> bool:
    if not all(is_suited(x) for x in t) or len({x[1] for x in t}) != 1:
        return False
    ranks = [int(x[0]) for x in t]
    return ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1


def check_counts(
    hand: Sequence[Tile], melds: Sequence[Meld], bonus: Sequence[Tile]
) -> tuple[list[int], list[int]]:
    """No tile more often than the set holds it, across rack, melds and bonus tiles; returns
    the counts over the 34 kinds of rack and melds, and of the rack alone."""
    counts = [0] * 34
    for t in hand:
        counts[KIND_INDEX[t]] += 1
    concealed = counts.copy()
    for m in melds:
        for t in m.tiles:
            counts[KIND_INDEX[t]] += 1
    if max(counts) > 4 or len(set(bonus)) != len(bonus):
        for t, n in Counter([*hand, *(t for m in melds for t in m.tiles), *bonus]).items():
            if n > copies_allowed(t):
                raise ScoringError(
                    f"{n} copies of {t} across hand, melds and bonus: the set holds only "
                    f"{copies_allowed(t)}"
                )
    return counts, concealed


_WIND_CODES = {w: wind_code(w) for w in WINDS}
# no kind more than four times: a set look-up per kind is cheaper than max() (two comparisons)
_AT_MOST_FOUR = frozenset(range(5))


def check_input(inp: HandInput, rs: RuleSet, flags: Collection[str] = FLAGS) -> CheckedHand:
    """Check everything the scorer relies on; raise ScoringError naming the first problem.
    Each check is one cheap test on the common path; the slow path names the problem.
    ``flags``: the flags the rule set knows (riichi has its own)."""
    try:  # a name that is not a string finds no code (an unhashable one raises TypeError)
        seat = _WIND_CODES.get(inp.seat_wind)
        prevailing = _WIND_CODES.get(inp.prevailing_wind)
    except TypeError:
        seat = prevailing = None
    if seat is None:
        seat = _wind(inp.seat_wind, "seat_wind")
    if prevailing is None:
        prevailing = _wind(inp.prevailing_wind, "prevailing_wind")
    if len(inp.melds) > 4:
        raise ScoringError(f"{len(inp.melds)} melds: a hand has at most four sets")
    melds, groups, meld_copies = _melds_and_groups(inp.melds)
    hand = tuple(inp.hand)
    try:
        counts = counts_of(hand)
    except (KeyError, TypeError):  # not one of the 34 kinds (or not even a string)
        _name_hand_tile(hand)
        raise
    bonus = tuple(inp.bonus)
    if bonus:
        _check_bonus(bonus, rs)
    concealed = counts.copy()
    for copies in meld_copies:
        for k, n in copies:  # a pung or kong: one kind, three or four copies
            counts[k] += n
    if not _AT_MOST_FOUR.issuperset(counts) or (bonus and len(set(bonus)) != len(bonus)):
        check_counts(hand, melds, bonus)
    n = len(hand)
    full = 14 - 3 * len(melds)
    if (n != full) if inp.mahjong else (n >= full):
        _check_size(inp, hand, melds)
    for f in inp.flags:
        if f not in flags:
            raise ScoringError(f"unknown flag {f!r}: the flags are {', '.join(flags)}")
    if inp.mahjong:
        src = inp.win_source
        try:  # the winning tile is among the concealed tiles: a kind the rack holds
            held = concealed[KIND_INDEX[inp.winning_tile]]  # type: ignore[index]
        except (KeyError, TypeError):  # no tile of the 34 kinds (None, a bonus tile, ...)
            held = 0
        if not (held and src in WIN_SOURCES and (src != "dealt" or seat == "ew")):
            _check_winner(inp, hand, seat)
    return CheckedHand(
        seat, prevailing, melds, hand, bonus, counts, concealed, groups, parts_of(concealed)
    )


def _name_hand_tile(hand: Sequence[Tile]) -> None:
    for t in hand:
        if not isinstance(t, str) or t not in KIND_INDEX:
            if isinstance(t, str) and is_bonus(t):
                raise ScoringError(f"bonus tile {t} is in hand: flowers and seasons go in bonus")
            _tile(t, "hand")


def _check_bonus(bonus: Sequence[Tile], rs: RuleSet) -> None:
    for t in bonus:
        if not is_bonus(_tile(t, "bonus")):
            raise ScoringError(f"tile {t} in bonus is not a flower or season")
    if not rs.bonus_tiles:
        raise ScoringError(
            f"bonus tile {bonus[0]} in rule set {rs.name} played without bonus tiles: "
            "leave it out or set the option bonus_tiles to true"
        )


def _check_size(inp: HandInput, hand: Sequence[Tile], melds: Sequence[Meld]) -> None:
    full = 14 - 3 * len(melds)
    if inp.mahjong and len(hand) != full:
        raise ScoringError(
            f"the winner's hand holds {len(hand)} concealed tiles; with {len(melds)} melds "
            f"it must hold {full} (14 plus one per kong, counting the melds)"
        )
    if not inp.mahjong and len(hand) > full - 1:
        raise ScoringError(
            f"hand holds {len(hand)} concealed tiles; with {len(melds)} melds a player who did "
            f"not win holds at most {full - 1}"
        )


def _check_winner(inp: HandInput, hand: Sequence[Tile], seat: Tile) -> None:
    if inp.winning_tile is None:
        raise ScoringError("winning_tile is missing: the winner's hand needs it")
    wt = _tile(inp.winning_tile, "winning_tile")
    if wt not in hand:
        raise ScoringError(f"winning_tile {wt} is not among the winner's concealed tiles (hand)")
    if inp.win_source not in WIN_SOURCES:
        raise ScoringError(
            f"win_source {inp.win_source!r} is unknown: use {', '.join(WIN_SOURCES)}"
        )
    if inp.win_source == "dealt" and seat != "ew":
        raise ScoringError("win_source 'dealt' is possible only for east")
