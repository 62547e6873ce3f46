"""Where every tile is, zone by zone, as the game has it and as it lies on the table (for undo,
put-backs and the conservation test)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from controller.game.state import CODE_INDEX, GameState, Hand, new_hand
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
    if hand.rh is not None:  # riichi: the indicators on the dora pad
        zones["dora"] = Counter(hand.rh.dora) + Counter(hand.rh.ura)
    return zones


#: Zones no reader sees: a tile put on the river pile or back in the wall is off the table.
OFF_TABLE = ("wall", "river")

Entry = tuple[str, str, str]


def same_place(a: str, b: str) -> bool:
    """Two zones a put-back cannot tell apart: the same zone, or both off the table."""
    return a == b or (a in OFF_TABLE and b in OFF_TABLE)


def physical_counts(
    hand: Hand, bonus_tiles: bool, misplaced: Iterable[Entry], cleared: Iterable[Entry] = ()
) -> dict[str, Counter[str]]:
    """Where the tiles lie on the table: the game's zones, with each out-of-place tile where
    it was put ((tile, where it lies, where the game has it)) and the moves that cleared the
    table after the hand ((tile, from, to))."""
    zones = zone_counts(hand, bonus_tiles)
    for tile, put, home in misplaced:
        _shift(zones, tile, home, put)
    for tile, src, dst in cleared:
        _shift(zones, tile, src, dst)
    return zones


def _shift(zones: dict[str, Counter[str]], tile: str, src: str, dst: str) -> None:
    if src in zones and dst in zones and zones[src][tile] > 0:
        zones[src][tile] -= 1
        zones[dst][tile] += 1


def differences(
    lying: dict[str, Counter[str]], wanted: dict[str, Counter[str]],
    prefer: Iterable[Entry] = (),
) -> list[Entry]:
    """The tiles that lie elsewhere than ``wanted`` has them: (tile, where it lies, where it
    belongs). The wall and the river count as one place (no reader tells them apart).

    Identical tiles can be paired in several ways; the pairs in ``prefer`` (tile, lies,
    belongs) come first, so that a tile keeps the note it had, and an undone move's tile goes
    back where that move took it from.
    """
    a, b = _merged(lying), _merged(wanted)
    out: list[Entry] = []
    for tile in sorted({t for c in a.values() for t in c}):
        extra = Counter({z: a[z][tile] - b[z][tile] for z in a if a[z][tile] > b[z][tile]})
        short = Counter({z: b[z][tile] - a[z][tile] for z in b if b[z][tile] > a[z][tile]})
        pairs = []
        for t, put, home in prefer:
            put, home = _place(put), _place(home)
            if t == tile and extra[put] > 0 and short[home] > 0:
                extra[put] -= 1
                short[home] -= 1
                pairs.append((put, home))
        pairs += zip(extra.elements(), short.elements(), strict=False)
        out += [(tile, _name(p, tile, lying, wanted), _name(h, tile, wanted, lying))
                for p, h in pairs]
    return out


def _place(zone: str) -> str:
    return "off" if zone in OFF_TABLE else zone


def _merged(zones: dict[str, Counter[str]]) -> dict[str, Counter[str]]:
    out = {z: c for z, c in zones.items() if z not in OFF_TABLE}
    out["off"] = zones["wall"] + zones["river"]
    return out


def _name(zone: str, tile: str, more: dict[str, Counter[str]],
          fewer: dict[str, Counter[str]]) -> str:
    """An off-table place by name: the river when that is where the difference lies."""
    if zone != "off":
        return zone
    return "river" if more["river"][tile] > fewer["river"][tile] else "wall"


def lying(state: GameState) -> dict[str, Counter[str]]:
    """Zone -> tile counts where the tiles lie on the table as the game knows it (out-of-place
    tiles where they were put, the table partly cleared): for the table's own players and
    readers, never for a public view. Empty before the first hand, unless an undo took the
    game back to before it while the tiles still lie out (issue 22: they are then where they
    were put, on their way back to the wall)."""
    bonus = bool(state.ruleset.bonus_tiles) if state.ruleset is not None else False
    if state.hand is None:  # tiles noted as cleared before any hand mean nothing here
        if not state.misplaced:
            return {}
        empty = new_hand(0, state.dealer, state.prevailing_wind, bonus)
        return physical_counts(empty, bonus, state.misplaced)
    return physical_counts(state.hand, bonus, state.misplaced, state.cleared)


def put_backs(state: GameState) -> list[dict[str, dict[str, str]]]:
    """The moves that put every out-of-place tile back, tiles named (for the table's own
    players, who know what they put where; the public view names only what lies in view)."""
    return [{"move": {"tile": t, "from": put, "to": home}} for t, put, home in state.misplaced]
