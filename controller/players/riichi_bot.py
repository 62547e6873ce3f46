"""How the bots play riichi (RULES.md 11): they read the engine's facts of their own seat (the
``riichi`` part of the seat view: a tsumo that is allowed, the riichi discards, kuikae, the
rons that are allowed), so every win they declare has a yaku and is not furiten; the
director lays the dora indicators from the dead wall and the ura after a riichi winner."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from controller.game.riichi import kuikae_tiles
from controller.game.riichi_abort import terminal_kinds
from controller.players.wall import turn_order

if TYPE_CHECKING:
    from controller.players.bots import Bot

View = Mapping[str, Any]
Event = dict[str, Any]


def move(tile: str, source: str, target: str) -> Event:  # as claims.move (claims imports bots)
    return {"move": {"tile": tile, "from": source, "to": target}}


def declare(seat: int, call: str) -> Event:
    return {"declare": {"seat": seat, "call": call}}

#: with this many different terminals and honours a bot plays on for kokushi rather than
#: declare nine terminals (abortive_draws: true)
KOKUSHI_TRY = 11
#: where the indicators lie in the director's wall: the replacements come from its last four
#: places, the k-th indicator from place total - 5 - 2k, its ura from the place before that
FIRST_INDICATOR = 5


def on_turn(bot: Bot, seat: View, rack: list[str]) -> tuple[str, str | None]:
    """Tsumo when the engine allows it; nine terminals when it may (fewer than 11 kinds: no
    try for kokushi); in riichi the drawn tile goes; riichi when the hand
    can declare it (the best of the discards that leave it waiting); else the best discard
    kuikae allows."""
    r = seat["riichi"]
    if r["tsumo"]:
        return "mahjong", r["drawn"]
    if r.get("nine_terminals") and terminal_kinds(rack) < KOKUSHI_TRY:
        return "nine_terminals", None
    if r["in_riichi"] and r["drawn"] in rack:
        return "discard", r["drawn"]
    hand = seat.get("table", {}).get("hand") or {}
    live = int(hand.get("live_wall", 0))
    kongs = sum(1 for s in (hand.get("seats") or {}).values() for m in s.get("melds", [])
                if len(m["tiles"]) == 4)
    if not r["kuikae"] and live > 0 and not r["in_riichi"] and kongs < 4:
        kong = bot._kong_choice(seat, rack)  # noqa: SLF001 - the bot's own policy
        if kong is not None and kong.tile is not None:
            return kong.kind, kong.tile
    if r["can_riichi"]:
        return "riichi", bot.choose_discard(seat, rack, r["riichi_discards"])
    allowed = [t for t in rack if t not in r["kuikae"]]
    return "discard", bot.choose_discard(seat, rack, allowed)


def kuikae_only(rack: Sequence[str], tile: str, kind: str, own: Sequence[str]) -> bool:
    """True when a call would leave only discards that kuikae forbids (the engine refuses)."""
    if kind not in ("chow", "pung"):
        return False
    rest = list(rack)
    for t in own:
        rest.remove(t)
    forbidden = kuikae_tiles(kind, tile, tuple(own))
    return all(t in forbidden for t in rest)


def indicator_event(view: View, wall: list[str], total: int) -> Event | None:
    """The next dora indicator due on the pad (the first after the deal, one per kong), or
    the next ura indicator after a riichi winner's win."""
    r = view.get("riichi") or {}
    hand = view.get("hand") or {}
    dora = r.get("dora_indicators", [])
    if hand.get("phase") == "over":
        if not r.get("ura_due"):
            return None
        k = len(r.get("ura_dora_indicators", []))
        return move(wall[total - FIRST_INDICATOR - 2 * k - 1], "wall", "dora")
    kongs = sum(1 for s in (hand.get("seats") or {}).values() for m in s.get("melds", [])
                if len(m["tiles"]) == 4)
    if len(dora) < 1 + kongs:
        return move(wall[total - FIRST_INDICATOR - 2 * len(dora)], "wall", "dora")
    return None


def ron_events(rons: Sequence[int], discarder: int, tile: str, multiple: str) -> list[Event]:
    """Every ron on the discard declared in turn order from the discarder (``head_bump``:
    the first only), then the discard to the first winner's rack."""
    order = [p for p in turn_order(discarder)[1:] if p in rons]
    if multiple == "head_bump":
        order = order[:1]
    return [*(declare(p, "mahjong") for p in order), move(tile, "discard", f"rack:{order[0]}")]
