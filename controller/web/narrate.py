"""The recent events in words, for the operator page, read off the game's own state chain.

Every accepted game-changing event keeps the state it replaced (``GameState.prev``), and
``undo N`` steps back N of them; so "what undo N takes back" is exactly the N newest steps of
that chain. Each step is told by comparing the state before and after it ("Seat 3 discarded
5b", "Seat 2 pung of 7c"). Tiles going into a rack are never named: what a player draws stays
concealed, on this page too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from controller.game import apply
from controller.game.zones import zone_counts

MAX_STEPS = 50


def zone_name(zone: str, names: Mapping[int, str]) -> str:
    """``rack:2`` -> "Seat 2's rack" (zone names people say)."""
    kind, _, pos = zone.partition(":")
    if pos:
        who = names.get(int(pos), f"Seat {pos}")
        return f"{who}'s {'rack' if kind == 'rack' else 'meld strip'}"
    return {"discard": "the discard pad", "river": "the river", "wall": "the wall"}.get(zone, zone)


def undoable(state: Any) -> int:
    """How many steps ``undo`` takes back at most: every step but the session's start (the
    engine refuses that one), so ``recent`` offers exactly what undo accepts (issue 22)."""
    return max(int(getattr(state, "depth", 0)) - 1, 0)


def steps(state: Any, count: int, names: Mapping[int, str]) -> list[str]:
    """The ``count`` newest undoable steps, newest first, each in words."""
    out: list[str] = []
    after = state
    while len(out) < min(count, MAX_STEPS, undoable(state)) and after.prev is not None:
        out.append(describe(after.prev, after, names))
        after = after.prev
    return out


def undo_preview(state: Any, count: int, names: Mapping[int, str]) -> dict[str, Any]:
    """What ``undo count`` takes back, and which tiles must then be put back where: the engine
    itself is asked (``apply`` is pure), so the preview is exactly what the undo will do."""
    available = min(undoable(state), MAX_STEPS)
    outcome = apply(state, {"correct": {"undo": count}}) if 1 <= count <= available else None
    if outcome is None or not outcome.accepted:
        return {"count": count, "available": available, "takes_back": [], "put_back": []}
    put_back = [
        {"tile": None if _concealed(lies, home) else tile, "from": zone_name(lies, names),
         "to": zone_name(home, names)}
        for tile, lies, home in outcome.state.misplaced
    ]
    return {"count": count, "available": available,
            "takes_back": steps(state, count, names), "put_back": put_back}


def _concealed(lies: str, home: str) -> bool:
    """As the public view has it: a tile that lies in a rack, or goes back into one (or into the
    wall), is not named."""
    return lies.startswith("rack") or home.startswith("rack") or home == "wall"


def describe(before: Any, after: Any, names: Mapping[int, str]) -> str:
    """One step in words."""
    who = lambda p: names.get(p, f"Seat {p}")  # noqa: E731
    if before.ruleset_name != after.ruleset_name or after.hand is None:
        return f"Session started ({after.ruleset_name})"
    renamed = [x.number for x, y in zip(before.hands, after.hands, strict=False)
               if x.names != y.names]
    if renamed:  # the operator's seat-holder correction
        return f"Who held a seat was corrected for hand(s) {', '.join(map(str, renamed))}"
    a, b = before.hand, after.hand
    penalty = _penalties(before.penalties, after.penalties, who)
    if penalty:  # a chombo may end the hand too
        return penalty
    if a is None or a.number != b.number:
        return f"Hand {b.number} begins: {who(b.dealer)} deals"
    if b.phase == "over" and a.phase != "over":
        return _ended(b, who)
    said = (_moves(a, b, after, names) + _sets(a, b, who) + _calls(a, b, who)
            + _riichi(a, b, who))
    text = "; ".join(said) if said else "a change on the table"
    return text[0].upper() + text[1:]


def _ended(hand: Any, who: Any) -> str:
    r = hand.result
    riichi = getattr(hand, "rh", None) is not None
    if r is None or r.result == "washout":
        return f"Hand {hand.number} ends {'in an exhaustive draw' if riichi else 'as a washout'}"
    winners = (r.details.get("riichi") or {}).get("winners") or [r.winner]
    if riichi and r.result == "mahjong":
        how = "Ron" if r.win_source in ("discard", "robbed_kong") else "Tsumo"
        return f"Hand {hand.number}: {how} by {', '.join(who(w) for w in winners)}"
    if r.result != "mahjong":  # nagashi mangan
        return f"Hand {hand.number}: {r.result.replace('_', ' ')} by " + \
            ", ".join(who(w) for w in winners)
    return f"Hand {hand.number}: Mahjong by {who(r.winner)}"


def _penalties(before: Any, after: Any, who: Any) -> str | None:
    """A penalty given or taken back, in words."""
    if len(after) > len(before):
        return _penalty(after[-1], who)
    back = [i for i, (x, y) in enumerate(zip(before, after, strict=False), start=1)
            if y.cancelled and not x.cancelled]
    return f"Penalty {back[0]} was taken back" if back else None


def _penalty(p: Any, who: Any) -> str:
    if p.kind == "chombo":
        return f"Chombo: {who(p.seat)}; hand {p.hand} is void and replayed"
    if p.kind == "transfer":
        return "Penalty: " + ", ".join(f"{who(f)} pays {who(t)} {n}" for f, t, n in p.payments)
    return f"Penalty ({p.kind.replace('_', ' ')}): {who(p.seat)}"


def _riichi(a: Any, b: Any, who: Any) -> list[str]:
    """Riichi's own steps: a seat declares riichi, its riichi stands, an indicator is laid."""
    ra, rb = getattr(a, "rh", None), getattr(b, "rh", None)
    if ra is None or rb is None:
        return []
    said = [f"{who(rb.pending)} declared riichi"] if rb.pending and rb.pending != ra.pending \
        else []
    said += [f"{who(p)}'s riichi stands (1,000 on the table)" for p in rb.riichi
             if p not in ra.riichi]
    said += [f"a dora indicator was laid: {t}" for t in rb.dora[len(ra.dora):]]
    said += [f"an ura indicator was laid: {t}" for t in rb.ura[len(ra.ura):]]
    return said


def _moves(a: Any, b: Any, after: Any, names: Mapping[int, str]) -> list[str]:
    who = lambda p: names.get(p, f"Seat {p}")  # noqa: E731
    bonus = bool(after.ruleset.bonus_tiles) if after.ruleset is not None else False
    za, zb = zone_counts(a, bonus), zone_counts(b, bonus)
    gone = {z: za[z] - zb.get(z, Counter()) for z in za}
    came = {z: zb[z] - za.get(z, Counter()) for z in zb}
    fixed = _correction(gone, came, names)
    if fixed:
        return [fixed]
    said = []
    for dst, tiles in came.items():
        for tile, n in tiles.items():
            for _ in range(n):
                src = next((z for z, t in gone.items() if t[tile] > 0), None)
                if src is not None:
                    gone[src][tile] -= 1
                text = _move(tile, src, dst, who)
                if text:
                    said.append(text)
    return said


def _correction(gone: dict[str, Counter[str]], came: dict[str, Counter[str]],
                names: Mapping[int, str]) -> str | None:
    """A reassigned tile: one zone swaps a tile for another and the wall the other way."""
    if not (+gone.get("wall", Counter())) or not (+came.get("wall", Counter())):
        return None
    for zone in came:
        if zone != "wall" and +came[zone] and +gone.get(zone, Counter()):
            old, new = next(iter(+gone[zone])), next(iter(+came[zone]))
            if zone.startswith("rack:"):
                return f"a misread tile in {zone_name(zone, names)} was corrected"
            return f"the {old} on {zone_name(zone, names)} was corrected to {new}"
    return None


def _move(tile: str, src: str | None, dst: str, who: Any) -> str | None:
    kind, _, pos = dst.partition(":")
    if dst == "river":
        return f"the discard {tile} was moved to the river"
    if dst == "wall":
        return None  # a corrected tile back in the wall
    if kind == "rack":
        if src == "wall":
            return f"{who(int(pos))} drew a tile"
        if src is None:
            return f"a tile in {who(int(pos))}'s rack was corrected"
        return f"{who(int(pos))} took a tile into the rack"
    if dst == "discard":
        src_pos = src.partition(":")[2] if src else ""
        return f"{who(int(src_pos))} discarded {tile}" if src_pos else f"{tile} on the pad"
    if kind == "melds":
        if src == "discard":
            return f"{who(int(pos))} took the discard {tile}"
        return f"{who(int(pos))} laid {tile} on the meld strip"
    return None


def _sets(a: Any, b: Any, who: Any) -> list[str]:
    said = []
    for sa, sb in zip(a.seats, b.seats, strict=True):
        for meld in sb.melds[len(sa.melds):]:
            kind = "concealed kong" if meld.concealed else meld.kind
            said.append(f"{who(sb.position)} {kind} of {meld.tiles[0]}")
        if sb.ready and not sa.ready and getattr(b, "rh", None) is None:  # riichi: _riichi
            said.append(f"{who(sb.position)} called ready")
    return said


def _calls(a: Any, b: Any, who: Any) -> list[str]:
    return [f"{who(seat)} called {call}" for seat, call in b.claimants if (seat, call)
            not in a.claimants]
