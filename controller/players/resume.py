"""Finishing an action found half done on the table, for a director started mid-hand.

A director queues the events of a claim, a kong or a Mahjong on a discard and hands them out
one by one; a fresh director (after a restart, or one the service starts anew) has no queue.
It reads what is half done from the public view instead: tiles forming on a meld strip, or a
Mahjong declared on a discard that still lies on the pad.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from controller.players.claims import Event, move
from controller.tiles import is_suited

View = Mapping[str, Any]


def resume_events(hand: View, rack_of: Callable[[int], Sequence[str]]) -> list[Event]:
    """The events that complete a half-done action, or [] when nothing is half done."""
    discard = hand.get("discard")
    if discard:
        for claimant in hand.get("claimants", []):
            if claimant.get("call") == "mahjong":
                return [move(discard["tile"], "discard", f"rack:{claimant['seat']}")]
    for key, seat in sorted(hand.get("seats", {}).items()):
        forming = list(seat.get("forming", []))
        if forming:
            position = int(key)
            own_turn = hand.get("turn") == position and hand.get("step") == "discard"
            return finish_set(position, forming, discard, rack_of(position), own_turn)
    return []


def _sets_with(tile: str) -> list[list[str]]:
    """Sets a claimed discard can complete: the pung, the chows that contain it, the kong."""
    sets = [[tile] * 3]
    if is_suited(tile):
        r, s = int(tile[0]), tile[1]
        sets += [[f"{n}{s}" for n in range(lo, lo + 3)] for lo in (r - 2, r - 1, r) if 1 <= lo <= 7]
    return sets + [[tile] * 4]


def finish_set(
    position: int,
    forming: Sequence[str],
    discard: View | None,
    rack: Sequence[str],
    own_turn: bool,
) -> list[Event]:
    """Moves that turn the tiles forming on ``position``'s strip into a set.

    The public view shows a discard on the pad until it reaches the claimant's strip; from then
    on it is one of the forming tiles.
    """
    strip, own = f"melds:{position}", f"rack:{position}"
    held, formed = Counter(rack), Counter(forming)
    if own_turn and not discard and len(formed) == 1:
        # A concealed kong being laid out on the own turn.
        return [move(forming[0], own, strip)] * max(0, 4 - len(forming))
    on_pad = discard["tile"] if discard and int(discard["seat"]) != position else None
    sources = [on_pad] if on_pad else sorted(formed)
    for candidate in (s for t in sources for s in _sets_with(t)):
        need = Counter(candidate)
        if formed - need:
            continue
        need -= formed
        if on_pad is None and not need - held:
            return [move(t, own, strip) for t in sorted(need.elements())]
        if on_pad is not None and need[on_pad] and not need - Counter({on_pad: 1}) - held:
            need[on_pad] -= 1
            rest = [move(t, own, strip) for t in sorted(need.elements())]
            return [move(on_pad, "discard", strip)] + rest
    return []
