"""Waits, completeness and every arrangement of a hand (architecture.md, Contract 2)."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from controller.scoring import arrange as ar
from controller.scoring.arrange import Group
from controller.scoring.model import ScoringError
from controller.scoring.rules import RuleSet
from controller.scoring.special import special_waits
from controller.scoring.validate import check_meld, checked_group
from controller.tiles import KIND_INDEX, KINDS, Meld, Tile


def _checked(concealed: Sequence[Tile], melds: Sequence[Meld]) -> tuple[list[int], list[Meld]]:
    """Counts of the concealed tiles over the 34 kinds, and the melds checked."""
    try:
        c = ar.counts_of(concealed)
    except (KeyError, TypeError):
        bad = next(t for t in concealed if t not in KIND_INDEX)
        raise ScoringError(f"concealed tile {bad!r} is not one of the 34 kinds") from None
    return c, [check_meld(m) for m in melds]


def free_chows(rs: RuleSet, melds: Sequence[Meld]) -> int | None:
    """How many chows the concealed tiles may still hold (bmja: one in all); None: any."""
    most = rs.max_chows
    if most is None:
        return None
    return most - sum(1 for m in melds if len(m.tiles) == 3 and m.tiles[0] != m.tiles[1])


def within_chows(groups: Sequence[Group], free: int | None) -> bool:
    return free is None or sum(1 for g in groups if g.kind == "chow") <= free


def standard_complete(c: list[int], free: int | None) -> bool:
    """True if counts ``c`` split into sets and a pair with at most ``free`` chows."""
    if not ar.is_standard_complete(c):
        return False
    return free is None or any(
        within_chows(groups, free) for groups in ar.arrangements_of_parts(ar.parts_of(c))
    )


def _complete(c: list[int], melds: Sequence[Meld], rs: RuleSet) -> bool:
    if standard_complete(c, free_chows(rs, melds)):
        return True
    if rs.name == "mcr" and _mcr_shapes().special_complete(c, len(melds)):
        return True
    if melds:
        return False
    return any(h.complete(c) for h in rs.special_hands)


def arrangements(
    concealed: Sequence[Tile], melds: Sequence[Meld], ruleset: RuleSet
) -> list[tuple[list[Group], str | None]]:
    """Every way a complete hand splits into sets and a pair (or a special hand of the rule
    set), declared melds fixed and first: a list of (groups, special hand name or None)."""
    fixed: list[Group] = []
    try:
        c = ar.counts_of(concealed)
        for m in melds:  # plain loops: this runs for every hand
            fixed.append(checked_group(tuple(m.tiles), True if m.concealed else False))
    except (KeyError, TypeError):
        _checked(concealed, melds)  # names the culprit
        raise
    found = ar.arrangements_of_parts(ar.parts_of(c))
    if ruleset.max_chows is not None:
        free = free_chows(ruleset, melds)
        found = [groups for groups in found if within_chows(groups, free)]
    out: list[tuple[list[Group], str | None]] = []
    if fixed:
        for groups in found:
            out.append(([*fixed, *groups], None))
        return out
    for groups in found:
        out.append((list(groups), None))
    for h in ruleset.special_hands:  # plain loops: this runs for every hand
        if h.complete(c):
            out.append((h.groups(c), h.name))
    return out


def is_complete(concealed: Sequence[Tile], melds: Sequence[Meld], ruleset: RuleSet) -> bool:
    """True if the concealed tiles and melds make a complete hand (14 tiles plus one per kong)."""
    c, ms = _checked(concealed, melds)
    if sum(c) != 14 - 3 * len(ms):
        return False
    return _complete(c, ms, ruleset)


def waits(concealed: Sequence[Tile], melds: Sequence[Meld], ruleset: RuleSet) -> list[Tile]:
    """The tile kinds that complete a 13-tile hand (plus one per kong), in KINDS order; a kind
    of which the hand already holds all four copies is no wait."""
    c, ms = _checked(concealed, melds)
    if sum(c) != 13 - 3 * len(ms):
        return []
    held = ar.counts_of([*concealed, *(t for m in ms for t in m.tiles)])
    return [KINDS[k] for k in wait_kinds(c, held, ms, ruleset)]


def wait_kinds(c: list[int], held: Sequence[int], melds: Sequence[Meld], rs: RuleSet) -> list[int]:
    """Kinds completing concealed counts ``c``, leaving out kinds ``held`` four times."""
    kinds = ar.standard_waits(c)
    free = free_chows(rs, melds)
    if free is not None:
        kinds = [k for k in kinds if completes_with(c, k, free)]
    hands = rs.special_hands
    if not melds and hands:
        more = special_waits(c, hands)
        if more:  # standard_waits answers in KINDS order already
            kinds = sorted(set(kinds) | more)
    if rs.name == "mcr":  # its own special shapes, a knitted straight with a meld too
        more = _mcr_shapes().special_waits(c, len(melds))
        if more:
            kinds = sorted(set(kinds) | more)
    return [k for k in kinds if held[k] < 4]


def _mcr_shapes() -> ModuleType:
    """mcr's special shapes, imported when an mcr hand first needs them (not for other rule
    sets' hands: they import mcr's scorer)."""
    from controller.scoring.mcr import shapes

    return shapes


def completes_with(c: list[int], k: int, free: int | None) -> bool:
    """True if counts ``c`` and one more tile of kind ``k`` are standard-complete within
    ``free`` chows (``c`` is left as it was)."""
    c[k] += 1
    try:
        return standard_complete(c, free)
    finally:
        c[k] -= 1
