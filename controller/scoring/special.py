"""The special hands: complete hands that are not four sets and a pair (RULES.md section 5).

One table, SPECIAL_HANDS, says for each what makes it complete, the groups it is arranged in
and the kinds 13 concealed tiles wait on for it; completeness, arrangements, waits and the
scorer all read it. A rule set names the special hands it counts complete (RuleSetSpec.specials).
Every special hand is concealed: none is complete with melds on the table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter

from controller.scoring.arrange import Group
from controller.tiles import KINDS, ORPHAN_INDICES

Counts = Sequence[int]

_orphans = itemgetter(*ORPHAN_INDICES)  # counts of the 13 orphans


@dataclass(frozen=True, slots=True)
class SpecialHand:
    """A special hand: ``complete`` (14 concealed counts over the 34 kinds), ``groups`` (its
    arrangement, for a complete hand) and ``waits`` (kinds completing 13 concealed counts)."""

    name: str
    complete: Callable[[Counts], bool]
    groups: Callable[[Counts], Sequence[Group]]
    waits: Callable[[Counts], set[int]]


# --- seven pairs --------------------------------------------------------------------------------


def is_seven_pairs(c: Counts) -> bool:
    """Seven different pairs (four of a kind is not two pairs)."""
    return c.count(2) == 7 and sum(c) == 14


_PAIRS = tuple(Group("pair", (t, t), True) for t in KINDS)


def seven_pairs_groups(c: Counts) -> list[Group]:
    """The pairs of a seven-pairs hand, in KINDS order."""
    out = []
    k = -1
    index = c.index
    for _ in range(7):  # seven look-ups in C rather than a pass over the 34 kinds
        k = index(2, k + 1)
        out.append(_PAIRS[k])
    return out


def seven_pairs_waits(c: Counts) -> set[int]:
    # one single and six pairs make 13 tiles, so nothing else is held
    if sum(c) == 13 and c.count(1) == 1 and c.count(2) == 6:
        return {c.index(1)}
    return set()


# --- thirteen orphans ---------------------------------------------------------------------------


def is_thirteen_orphans(c: Counts) -> bool:
    """One of each terminal and honour, plus a fourteenth pairing one of them."""
    return sum(c) == 14 and all(_orphans(c)) and sum(_orphans(c)) == 14


def thirteen_orphans_groups(c: Counts) -> list[Group]:
    tiles = tuple(KINDS[k] for k in range(34) for _ in range(c[k]))
    return [Group("thirteen_orphans", tiles, True)]


def thirteen_orphans_waits(c: Counts) -> set[int]:
    if sum(c) != 13 or sum(_orphans(c)) != 13:
        return set()
    missing = [k for k in ORPHAN_INDICES if not c[k]]
    if not missing:
        return set(ORPHAN_INDICES)
    return {missing[0]} if len(missing) == 1 else set()


SPECIAL_HANDS: dict[str, SpecialHand] = {
    h.name: h for h in (
        SpecialHand("seven_pairs", is_seven_pairs, seven_pairs_groups, seven_pairs_waits),
        SpecialHand("thirteen_orphans", is_thirteen_orphans, thirteen_orphans_groups,
                    thirteen_orphans_waits),
    )
}


def special_hands(names: frozenset[str]) -> tuple[SpecialHand, ...]:
    """The special hands ``names``, in the table's order; an unknown name is an error."""
    unknown = names - set(SPECIAL_HANDS)
    if unknown:
        raise ValueError(f"unknown special hand(s) {', '.join(sorted(unknown))}: the special "
                         f"hands are {', '.join(SPECIAL_HANDS)}")
    return tuple(h for n, h in SPECIAL_HANDS.items() if n in names)


def complete_special(c: Counts, hands: Sequence[SpecialHand]) -> list[tuple[Sequence[Group], str]]:
    """The special hands of ``hands`` that 14 concealed counts ``c`` make, with their groups."""
    return [(h.groups(c), h.name) for h in hands if h.complete(c)]


def special_waits(c: Counts, hands: Sequence[SpecialHand]) -> set[int]:
    """Kinds that complete 13 concealed counts ``c`` as one of ``hands``."""
    out: set[int] = set()
    for h in hands:
        out |= h.waits(c)
    return out
