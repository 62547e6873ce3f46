"""Waits, completeness and every arrangement of a hand (architecture.md, Contract 2)."""

from __future__ import annotations

from collections.abc import Sequence

from controller.scoring import arrange as ar
from controller.scoring.arrange import Group
from controller.scoring.mcr import shapes as mcr_shapes
from controller.scoring.model import ScoringError
from controller.scoring.rules import RuleSet
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


def _complete(c: list[int], has_melds: int, rs: RuleSet) -> bool:
    if ar.is_standard_complete(c):
        return True
    if rs.name == "mcr" and mcr_shapes.special_complete(c, has_melds):
        return True
    if has_melds:
        return False
    return ("seven_pairs" in rs.specials and ar.is_seven_pairs(c)) or (
        "thirteen_orphans" in rs.specials and ar.is_thirteen_orphans(c)
    )


def arrangements(
    concealed: Sequence[Tile], melds: Sequence[Meld], ruleset: RuleSet
) -> list[tuple[list[Group], str | None]]:
    """Every way a complete hand splits into sets and a pair (or a special hand of the rule
    set), declared melds fixed and first: a list of (groups, special hand name or None)."""
    fixed: list[Group] = []
    try:
        c = ar.counts_of(concealed)
        for m in melds:  # plain loops: this runs for every hand
            fixed.append(checked_group(tuple(m.tiles), bool(m.concealed)))
    except (KeyError, TypeError):
        _checked(concealed, melds)  # names the culprit
        raise
    found = ar.arrangements_of_parts(ar.parts_of(c))
    out: list[tuple[list[Group], str | None]] = []
    if fixed:
        for groups in found:
            out.append(([*fixed, *groups], None))
        return out
    for groups in found:
        out.append((list(groups), None))
    specials = ruleset.specials
    if specials:
        if "seven_pairs" in specials and ar.is_seven_pairs(c):
            out.append((ar.seven_pairs_groups(c), "seven_pairs"))
        if "thirteen_orphans" in specials and ar.is_thirteen_orphans(c):
            out.append(([ar.thirteen_orphans_group(c)], "thirteen_orphans"))
    return out


def is_complete(concealed: Sequence[Tile], melds: Sequence[Meld], ruleset: RuleSet) -> bool:
    """True if the concealed tiles and melds make a complete hand (14 tiles plus one per kong)."""
    c, ms = _checked(concealed, melds)
    if sum(c) != 14 - 3 * len(ms):
        return False
    return _complete(c, len(ms), ruleset)


def waits(concealed: Sequence[Tile], melds: Sequence[Meld], ruleset: RuleSet) -> list[Tile]:
    """The tile kinds that complete a 13-tile hand (plus one per kong), in KINDS order; a kind
    of which the hand already holds all four copies is no wait."""
    c, ms = _checked(concealed, melds)
    if sum(c) != 13 - 3 * len(ms):
        return []
    held = ar.counts_of([*concealed, *(t for m in ms for t in m.tiles)])
    return [KINDS[k] for k in wait_kinds(c, held, len(ms), ruleset)]


def wait_kinds(c: list[int], held: Sequence[int], has_melds: int, rs: RuleSet) -> list[int]:
    """Kinds completing concealed counts ``c``, leaving out kinds ``held`` four times;
    ``has_melds``: how many sets are on the table."""
    kinds = ar.standard_waits(c)
    if rs.name == "mcr":
        more = mcr_shapes.special_waits(c, has_melds)
        if more:
            kinds = sorted(set(kinds) | more)
    specials = rs.specials
    if not has_melds and specials:
        more = ar.special_waits(c, specials)
        if more:  # standard_waits answers in KINDS order already
            kinds = sorted(set(kinds) | more)
    return [k for k in kinds if held[k] < 4]
