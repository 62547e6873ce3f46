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
from controller.tiles import DRAGON_INDICES, HONOUR_INDICES, KINDS, ORPHAN_INDICES, WIND_INDICES

Counts = Sequence[int]

_orphans = itemgetter(*ORPHAN_INDICES)  # counts of the 13 orphans


@dataclass(frozen=True, slots=True)
class SpecialHand:
    """A special hand: ``complete`` (14 concealed counts over the 34 kinds), ``groups`` (its
    arrangement, for a complete hand) and ``waits`` (kinds completing 13 concealed counts);
    ``near`` (14 concealed counts: a winner's, with the winning tile) is a cheap test that is
    False when no 13 of them can have waited on this hand, so the scorer skips ``waits``."""

    name: str
    complete: Callable[[Counts], bool]
    groups: Callable[[Counts], list[Group]]
    waits: Callable[[Counts], set[int]]
    near: Callable[[Counts], bool] = lambda c: True


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


def near_seven_pairs(c: Counts) -> bool:
    """Six pairs and a single, plus a tile: it pairs the single, or joins a pair (five pairs
    left) or nothing (six)."""
    return c.count(2) >= 5


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


def near_thirteen_orphans(c: Counts) -> bool:
    """Thirteen orphans and a tile: thirteen orphans at least."""
    held: int = sum(_orphans(c))
    return held >= 13


def thirteen_orphans_waits(c: Counts) -> set[int]:
    if sum(c) != 13 or sum(_orphans(c)) != 13:
        return set()
    missing = [k for k in ORPHAN_INDICES if not c[k]]
    if not missing:
        return set(ORPHAN_INDICES)
    return {missing[0]} if len(missing) == 1 else set()


# --- bmja's special hands (Kajongg's "Classical Chinese BMJA") -----------------------------------


def _by_trial(complete: Callable[[Counts], bool]) -> Callable[[Counts], set[int]]:
    """Waits found by trying each kind: for the rarer special hands, whose ``complete`` fails
    fast on most hands."""

    def waits(c: Counts) -> set[int]:
        if sum(c) != 13:
            return set()
        out = set()
        trial = list(c)
        for k in range(len(KINDS)):
            if trial[k] < 4:
                trial[k] += 1
                if complete(trial):
                    out.add(k)
                trial[k] -= 1
        return out

    return waits


def _one_group(name: str) -> Callable[[Counts], list[Group]]:
    def groups(c: Counts) -> list[Group]:
        return [Group(name, tuple(KINDS[k] for k in range(34) for _ in range(c[k])), True)]

    return groups


def _suits(c: Counts) -> list[Counts]:
    return [c[i * 9:i * 9 + 9] for i in range(3)]


def is_gates_of_heaven(c: Counts) -> bool:
    """One suit ``1112345678999`` plus one more of 2-8: three 1s and three 9s exactly."""
    if sum(c) != 14 or any(c[k] for k in HONOUR_INDICES):
        return False
    held = [s for s in _suits(c) if any(s)]
    return len(held) == 1 and held[0][0] == 3 and held[0][8] == 3 and all(held[0][1:8])


def is_wriggling_snake(c: Counts) -> bool:
    """A pair of 1s, 2 to 9 once each of the same suit, and each wind once."""
    if sum(c) != 14 or any(c[k] != 1 for k in WIND_INDICES) or any(c[k] for k in DRAGON_INDICES):
        return False
    held = [s for s in _suits(c) if any(s)]
    return len(held) == 1 and held[0][0] == 2 and all(n == 1 for n in held[0][1:])


def is_knitting(c: Counts) -> bool:
    """Seven pairs of tiles of the same number in two suits (no winds or dragons)."""
    if sum(c) != 14 or any(c[k] for k in HONOUR_INDICES):
        return False
    held = [s for s in _suits(c) if any(s)]
    return len(held) == 2 and list(held[0]) == list(held[1])


def knitting_groups(c: Counts) -> list[Group]:
    a, b = [i for i, s in enumerate(_suits(c)) if any(s)]
    return [Group("knitted_pair", (KINDS[a * 9 + r], KINDS[b * 9 + r]), True)
            for r in range(9) for _ in range(c[a * 9 + r])]


def _triples(c: Counts) -> list[int]:
    """Knitted triples by number: the same number in all three suits."""
    return [min(c[r], c[9 + r], c[18 + r]) for r in range(9)]


def is_triple_knitting(c: Counts) -> bool:
    """Four knitted triples and a pair of one number in two suits (no winds or dragons)."""
    if sum(c) != 14 or any(c[k] for k in HONOUR_INDICES):
        return False
    triples = _triples(c)
    if sum(triples) != 4:
        return False
    rest = [k for k in range(27) for _ in range(c[k] - triples[k % 9])]
    return rest[0] % 9 == rest[1] % 9 and rest[0] // 9 != rest[1] // 9


def triple_knitting_groups(c: Counts) -> list[Group]:
    triples = _triples(c)
    out = [Group("knitted_triple", (KINDS[r], KINDS[9 + r], KINDS[18 + r]), True)
           for r in range(9) for _ in range(triples[r])]
    rest = tuple(KINDS[k] for k in range(27) for _ in range(c[k] - triples[k % 9]))
    return [*out, Group("knitted_pair", rest, True)]


def is_all_pair_honours(c: Counts) -> bool:
    """Seven different pairs of 1s, 9s, winds and dragons."""
    return is_seven_pairs(c) and sum(_orphans(c)) == 14


SPECIAL_HANDS: dict[str, SpecialHand] = {
    h.name: h for h in (
        SpecialHand("seven_pairs", is_seven_pairs, seven_pairs_groups, seven_pairs_waits,
                    near_seven_pairs),
        SpecialHand("thirteen_orphans", is_thirteen_orphans, thirteen_orphans_groups,
                    thirteen_orphans_waits, near_thirteen_orphans),
        SpecialHand("gates_of_heaven", is_gates_of_heaven, _one_group("gates_of_heaven"),
                    _by_trial(is_gates_of_heaven)),
        SpecialHand("wriggling_snake", is_wriggling_snake, _one_group("wriggling_snake"),
                    _by_trial(is_wriggling_snake)),
        SpecialHand("triple_knitting", is_triple_knitting, triple_knitting_groups,
                    _by_trial(is_triple_knitting)),
        SpecialHand("knitting", is_knitting, knitting_groups, _by_trial(is_knitting)),
        SpecialHand("all_pair_honours", is_all_pair_honours, seven_pairs_groups,
                    _by_trial(is_all_pair_honours)),
    )
}


def special_hands(names: frozenset[str]) -> tuple[SpecialHand, ...]:
    """The special hands ``names``, in the table's order; an unknown name is an error."""
    unknown = names - set(SPECIAL_HANDS)
    if unknown:
        raise ValueError(f"unknown special hand(s) {', '.join(sorted(unknown))}: the special "
                         f"hands are {', '.join(SPECIAL_HANDS)}")
    return tuple(h for n, h in SPECIAL_HANDS.items() if n in names)


def complete_special(c: Counts, hands: Sequence[SpecialHand]) -> list[tuple[list[Group], str]]:
    """The special hands of ``hands`` that 14 concealed counts ``c`` make, with their groups."""
    return [(h.groups(c), h.name) for h in hands if h.complete(c)]


def special_waits(c: Counts, hands: Sequence[SpecialHand]) -> set[int]:
    """Kinds that complete 13 concealed counts ``c`` as one of ``hands``."""
    out: set[int] = set()
    for h in hands:
        out |= h.waits(c)
    return out
