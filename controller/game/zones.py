"""Where every tile is, zone by zone, as the game has it (for undo and the conservation test)."""

from __future__ import annotations

from collections import Counter

from controller.game.state import CODE_INDEX, Hand
from controller.tiles import ALL_CODES, copies_allowed, is_bonus


def zone_counts(hand: Hand, bonus_tiles: bool) -> dict[str, Counter[str]]:
    """Tile counts per zone (``rack:N``, ``melds:N``, ``discard``, ``river``, ``wall``)."""
    zones: dict[str, Counter[str]] = {}
    claim = hand.claim
    live = hand.discard
    on_pad: Counter[str] = Counter(t for t, _ in hand.pad_dead)
    if live is not None and hand.taken is None and not (claim and claim.discard_on_strip):
        on_pad[live[0]] += 1
    river: Counter[str] = Counter()
    for seat in hand.seats:
        zones[f"rack:{seat.position}"] = Counter(seat.rack)
        strip = Counter(seat.forming) + Counter(seat.bonus)
        for m in seat.melds:
            strip.update(m.tiles)
        if claim is not None and claim.seat == seat.position and claim.discard_on_strip:
            strip[claim.tile] += 1
        zones[f"melds:{seat.position}"] = strip
        river.update(seat.river)
    zones["river"] = river - Counter(t for t, _ in hand.pad_dead)
    zones["discard"] = on_pad
    wall: Counter[str] = Counter()
    for code in ALL_CODES:
        if is_bonus(code) and not bonus_tiles:
            continue
        left = copies_allowed(code) - hand.out[CODE_INDEX[code]]
        if left:
            wall[code] = left
    zones["wall"] = wall
    return zones


def misplaced_after_undo(
    now: Hand | None, then: Hand | None, bonus_tiles: bool
) -> list[tuple[str, str, str]]:
    """Tiles that lie where ``now`` has them but ``then`` (the game after an undo) does not:
    (tile, where it lies, where the game has it)."""
    if now is None or then is None or now.number != then.number:
        return []
    a, b = zone_counts(now, bonus_tiles), zone_counts(then, bonus_tiles)
    out = []
    for zone, counts in a.items():
        for tile, n in (counts - b[zone]).items():
            for _ in range(n):
                home = next((z for z in b if b[z][tile] > a[z][tile]), None)
                if home is not None:
                    out.append((tile, zone, home))
    return out
