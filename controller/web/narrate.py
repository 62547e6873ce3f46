"""The recent events in words, for the operator page, read off the game's own state chain.

Every accepted game-changing event keeps the state it replaced (``GameState.prev``), and
``undo N`` steps back N of them; so "what undo N takes back" is exactly the N newest steps of
that chain. Each step is told by comparing the state before and after it ("Seat 3 discarded
5b", "Seat 2 pung of 7c"). Tiles going into a rack are never named: what a player draws stays
concealed, on this page too. The words are in the operator page's language (``words``: the
``messages`` catalog, and the ``terms`` one for the sets and calls); tile codes stay codes (the
page shows each as its face and name).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from controller.game import apply
from controller.game.zones import zone_counts
from controller.i18n import Words

ENGLISH = Words("en")

MAX_STEPS = 50


def _who(names: Mapping[int, str], words: Words) -> Any:
    return lambda p: names.get(p) or words.t("Seat {n}", n=p)


def zone_name(zone: str, names: Mapping[int, str], words: Words = ENGLISH) -> str:
    """``rack:2`` -> "Seat 2's rack" (zone names people say)."""
    kind, _, pos = zone.partition(":")
    if pos:
        who = _who(names, words)(int(pos))
        return (words.t("{who}'s rack", who=who) if kind == "rack"
                else words.t("{who}'s meld strip", who=who))
    return {"discard": words.t("the discard pad"), "river": words.t("the river"),
            "wall": words.t("the wall"), "dora": words.t("the dora pad")}.get(zone, zone)


def undoable(state: Any) -> int:
    """How many steps ``undo`` takes back at most: every step but the session's start (the
    engine refuses that one), so ``recent`` offers exactly what undo accepts (issue 22)."""
    return max(int(getattr(state, "depth", 0)) - 1, 0)


def steps(state: Any, count: int, names: Mapping[int, str], words: Words = ENGLISH) -> list[str]:
    """The ``count`` newest undoable steps, newest first, each in words."""
    out: list[str] = []
    after = state
    while len(out) < min(count, MAX_STEPS, undoable(state)) and after.prev is not None:
        out.append(describe(after.prev, after, names, words))
        after = after.prev
    return out


def undo_preview(state: Any, count: int, names: Mapping[int, str],
                 words: Words = ENGLISH) -> dict[str, Any]:
    """What ``undo count`` takes back, and which tiles must then be put back where: the engine
    itself is asked (``apply`` is pure), so the preview is exactly what the undo will do."""
    available = min(undoable(state), MAX_STEPS)
    outcome = apply(state, {"correct": {"undo": count}}) if 1 <= count <= available else None
    if outcome is None or not outcome.accepted:
        return {"count": count, "available": available, "takes_back": [], "put_back": []}
    put_back = [
        {"tile": None if _concealed(lies, home) else tile, "from": zone_name(lies, names, words),
         "to": zone_name(home, names, words)}
        for tile, lies, home in outcome.state.misplaced
    ]
    return {"count": count, "available": available,
            "takes_back": steps(state, count, names, words), "put_back": put_back}


def _concealed(lies: str, home: str) -> bool:
    """As the public view has it: a tile that lies in a rack, or goes back into one (or into the
    wall), is not named."""
    return lies.startswith("rack") or home.startswith("rack") or home == "wall"


def describe(before: Any, after: Any, names: Mapping[int, str], words: Words = ENGLISH) -> str:
    """One step in words ("a change on the table" when nothing more can be said of it)."""
    said = telling(before, after, names, words)
    return said if said is not None else capital(words.t("a change on the table"))


def telling(before: Any, after: Any, names: Mapping[int, str],
            words: Words = ENGLISH) -> str | None:
    """One step in words, or None when the state tells nothing a player would name."""
    who, t = _who(names, words), words.t
    if before.ruleset_name != after.ruleset_name or after.hand is None:
        return t("Session started ({ruleset})", ruleset=after.ruleset_name)
    renamed = [x.number for x, y in zip(before.hands, after.hands, strict=False)
               if x.names != y.names]
    if renamed:  # the operator's seat-holder correction
        return words.tn("Who held a seat was corrected for hand {hands}",
                        "Who held a seat was corrected for hands {hands}", len(renamed),
                        hands=", ".join(map(str, renamed)))
    a, b = before.hand, after.hand
    penalty = _penalties(before.penalties, after.penalties, who, words)
    if penalty:  # a chombo may end the hand too
        return penalty
    if a is None or a.number != b.number:
        return t("Hand {n} begins: {who} deals", n=b.number, who=who(b.dealer))
    if b.phase == "over" and a.phase != "over":
        return _ended(b, who, words)
    said = (_moves(a, b, after, names, words) + _sets(a, b, who, words)
            + _calls(a, b, who, words) + _riichi(a, b, who, words))
    return capital("; ".join(said)) if said else None


def capital(text: str) -> str:
    """The text with its first letter upper-case (a sentence's start)."""
    return text[:1].upper() + text[1:]


def _ended(hand: Any, who: Any, words: Words) -> str:
    r = hand.result
    riichi = getattr(hand, "rh", None) is not None
    if r is None or r.result == "washout":
        return (words.t("Hand {n} ends in an exhaustive draw", n=hand.number) if riichi
                else words.t("Hand {n} ends as a washout", n=hand.number))
    winners = (r.details.get("riichi") or {}).get("winners") or [r.winner]
    named = ", ".join(who(w) for w in winners)
    if riichi and r.result == "mahjong":
        if r.win_source in ("discard", "robbed_kong"):
            return words.t("Hand {n}: Ron by {who}", n=hand.number, who=named)
        return words.t("Hand {n}: Tsumo by {who}", n=hand.number, who=named)
    if r.result != "mahjong":  # nagashi mangan
        return words.t("Hand {n}: {result} by {who}", n=hand.number,
                       result=words.term(r.result), who=named)
    return words.t("Hand {n}: Mahjong by {who}", n=hand.number, who=who(r.winner))


def _penalties(before: Any, after: Any, who: Any, words: Words) -> str | None:
    """A penalty given or taken back, in words."""
    if len(after) > len(before):
        return _penalty(after[-1], who, words)
    back = [i for i, (x, y) in enumerate(zip(before, after, strict=False), start=1)
            if y.cancelled and not x.cancelled]
    return words.t("Penalty {n} was taken back", n=back[0]) if back else None


def _penalty(p: Any, who: Any, words: Words) -> str:
    if p.kind == "chombo":
        return words.t("Chombo: {who}; hand {n} is void and replayed", who=who(p.seat), n=p.hand)
    if p.kind == "transfer":
        return words.t("Penalty: {payments}", payments=", ".join(
            words.t("{payer} pays {payee} {amount}", payer=who(f), payee=who(to), amount=n)
            for f, to, n in p.payments))
    return words.t("Penalty ({kind}): {who}", kind=p.kind.replace("_", " "), who=who(p.seat))


def _riichi(a: Any, b: Any, who: Any, words: Words) -> list[str]:
    """Riichi's own steps: a seat declares riichi, its riichi stands, an indicator is laid."""
    ra, rb = getattr(a, "rh", None), getattr(b, "rh", None)
    if ra is None or rb is None:
        return []
    said = ([words.t("{who} declared riichi", who=who(rb.pending))]
            if rb.pending and rb.pending != ra.pending else [])
    said += [words.t("{who}'s riichi stands (1,000 on the table)", who=who(p))
             for p in rb.riichi if p not in ra.riichi]
    said += [words.t("a dora indicator was laid: {tile}", tile=x) for x in rb.dora[len(ra.dora):]]
    said += [words.t("an ura indicator was laid: {tile}", tile=x) for x in rb.ura[len(ra.ura):]]
    return said


def _moves(a: Any, b: Any, after: Any, names: Mapping[int, str], words: Words) -> list[str]:
    who = _who(names, words)
    bonus = bool(after.ruleset.bonus_tiles) if after.ruleset is not None else False
    za, zb = zone_counts(a, bonus), zone_counts(b, bonus)
    gone = {z: za[z] - zb.get(z, Counter()) for z in za}
    came = {z: zb[z] - za.get(z, Counter()) for z in zb}
    fixed = _correction(gone, came, names, words)
    if fixed:
        return [fixed]
    said = []
    for dst, tiles in came.items():
        for tile, n in tiles.items():
            for _ in range(n):
                src = next((z for z, t in gone.items() if t[tile] > 0), None)
                if src is not None:
                    gone[src][tile] -= 1
                text = _move(tile, src, dst, who, words)
                if text:
                    said.append(text)
    return said


def _correction(gone: dict[str, Counter[str]], came: dict[str, Counter[str]],
                names: Mapping[int, str], words: Words) -> str | None:
    """A reassigned tile: one zone swaps a tile for another and the wall the other way."""
    if not (+gone.get("wall", Counter())) or not (+came.get("wall", Counter())):
        return None
    for zone in came:
        if zone != "wall" and +came[zone] and +gone.get(zone, Counter()):
            old, new = next(iter(+gone[zone])), next(iter(+came[zone]))
            where = zone_name(zone, names, words)
            if zone.startswith("rack:"):
                return words.t("a misread tile in {where} was corrected", where=where)
            return words.t("the {old} on {where} was corrected to {new}", old=old, where=where,
                           new=new)
    return None


def _move(tile: str, src: str | None, dst: str, who: Any, words: Words) -> str | None:
    kind, _, pos = dst.partition(":")
    t = words.t
    if dst == "river":
        return t("the discard {tile} was moved to the river", tile=tile)
    if dst == "wall":
        return None  # a corrected tile back in the wall
    if kind == "rack":
        if src == "wall":
            return t("{who} drew a tile", who=who(int(pos)))
        if src is None:
            return t("a tile in {who}'s rack was corrected", who=who(int(pos)))
        return t("{who} took a tile into the rack", who=who(int(pos)))
    if dst == "discard":
        src_pos = src.partition(":")[2] if src else ""
        return (t("{who} discarded {tile}", who=who(int(src_pos)), tile=tile) if src_pos
                else t("{tile} on the pad", tile=tile))
    if kind == "melds":
        if src == "discard":
            return t("{who} took the discard {tile}", who=who(int(pos)), tile=tile)
        return t("{who} laid {tile} on the meld strip", who=who(int(pos)), tile=tile)
    return None


def _sets(a: Any, b: Any, who: Any, words: Words) -> list[str]:
    said = []
    for sa, sb in zip(a.seats, b.seats, strict=True):
        for meld in sb.melds[len(sa.melds):]:
            kind = words.t("concealed kong") if meld.concealed else words.term(meld.kind)
            said.append(words.t("{who} {set} of {tile}", who=who(sb.position), set=kind,
                                tile=meld.tiles[0]))
        if sb.ready and not sa.ready and getattr(b, "rh", None) is None:  # riichi: _riichi
            said.append(words.t("{who} called {call}", who=who(sb.position),
                                call=words.term("ready")))
    return said


def _calls(a: Any, b: Any, who: Any, words: Words) -> list[str]:
    return [words.t("{who} called {call}", who=who(seat), call=words.term(call))
            for seat, call in b.claimants if (seat, call) not in a.claimants]
