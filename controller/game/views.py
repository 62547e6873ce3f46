"""What the table shows: the public view (no concealed tile of a hand in play), a seat's own view,
and the ``replay`` command's summary (FORMATS.md)."""

from __future__ import annotations

from typing import Any

from controller.game.people import names_json, penalty_json
from controller.game.privacy import public_violation
from controller.game.riichi_views import public_riichi, seat_riichi
from controller.game.state import GameState, Hand, HandRecord, Seat
from controller.tiles import WINDS, is_bonus, sort_tiles

_POS = ("1", "2", "3", "4")


def _per_seat(values: tuple[int, ...]) -> dict[str, int]:
    """Position ("1" to "4") -> value, from values in seat order."""
    return {str(position): value for position, value in enumerate(values, 1)}


def _record_json(r: HandRecord) -> dict[str, Any]:
    out = {
        "number": r.number, "dealer": r.dealer, "prevailing_wind": r.prevailing_wind,
        "result": r.result, "winner": r.winner, "scores": _per_seat(r.scores),
        "net": _per_seat(r.net), "win_source": r.win_source, "discarder": r.discarder,
        "winds": winds_of(r.dealer), "names": names_json(r.names),
    }
    if r.riichi is not None:  # riichi's fields (FORMATS.md replay)
        out.update({k: v for k, v in r.riichi.items() if k in _RIICHI_RECORD})
    return out


_RIICHI_RECORD = ("honba", "riichi_sticks", "riichi", "dora_indicators", "ura_dora_indicators",
                  "winners", "tenpai", "points", "chombo", "abortive")


def winds_of(dealer: int) -> dict[str, str]:
    """Each position's seat wind in a hand with this dealer (the dealer is east)."""
    return {p: WINDS[(int(p) - dealer) % 4] for p in _POS}


def _people(state: GameState) -> dict[str, Any]:
    """Names, penalties and deductions: what the views and the replay add for the club."""
    return {
        "names": names_json(state.names),
        "penalties": [penalty_json(p) for p in state.penalties],
        "deductions": _per_seat(state.deductions),
    }


def _seat_public(hand: Hand, seat: Seat) -> dict[str, Any]:
    forming = list(seat.forming)
    claim = hand.claim
    if claim is not None and claim.seat == seat.position and claim.discard_on_strip:
        forming.append(claim.tile)
    return {
        "position": seat.position,
        "wind": hand.wind_of(seat.position),
        "concealed_count": sum(1 for t in seat.rack if not is_bonus(t)),
        "rack_count": len(seat.rack),
        "melds": [m.to_json() for m in seat.melds],
        "forming": forming,
        "bonus": list(seat.bonus),
        "river": list(seat.river),
        "ready": seat.ready,
        "dead": seat.dead,
        "replacements_due": seat.replacements_due,
    }


def _out_of_place(state: GameState) -> list[dict[str, Any]]:
    """Tiles to put back; a tile that lies in a rack or came from the wall is not named."""
    out = []
    for tile, put, home in state.misplaced:
        hidden = put.startswith("rack") or home == "wall" or home.startswith("rack")
        out.append({"tile": None if hidden else tile, "zone": put, "back_to": home})
    return out


def _hand_public(state: GameState, hand: Hand, now: float | None) -> dict[str, Any]:
    result = hand.result
    discard = None
    claim = hand.claim
    on_strip = claim is not None and claim.discard_on_strip
    # Every tile is listed once: a discard lying on a claimant's strip is one of its forming
    # tiles, and the pad (hand.discard) is empty; "claim" says which tile and whose it was.
    if hand.discard is not None and hand.taken is None and not on_strip:
        discard = {"tile": hand.discard[0], "seat": hand.discard[1]}
    timers: dict[str, Any] = {
        "claim_deadline": hand.claim_deadline, "turn_deadline": hand.turn_deadline,
    }
    if now is not None:
        for key in ("claim", "turn"):
            deadline = timers[f"{key}_deadline"]
            timers[f"{key}_remaining"] = None if deadline is None else round(deadline - now, 3)
    return {
        "number": hand.number,
        "dealer": hand.dealer,
        "prevailing_wind": hand.prevailing_wind,
        "phase": hand.phase,
        "turn": None if hand.phase == "over" else hand.turn,
        "step": hand.step,
        "discard": discard,
        "claim_window": hand.phase == "play" and hand.discard is not None,
        "claimants": [{"seat": p, "call": c} for p, c in hand.claimants],
        "claim": None if claim is None else {
            "seat": claim.seat, "discard": {"tile": claim.tile, "seat": claim.discarder},
            "on_strip": claim.discard_on_strip,
        },
        "live_wall": hand.live_wall,
        "dead_wall": 14,
        "seats": {str(s.position): _seat_public(hand, s) for s in hand.seats},
        "timers": timers,
        "last_violation": public_violation(
            state.last_violation.to_json() if state.last_violation else None, state),
        "out_of_place": _out_of_place(state),
        "result": None if result is None else {
            "result": result.result, "winner": result.winner,
            "win_source": result.win_source, "discarder": result.discarder,
            "scores": _per_seat(result.scores), "net": _per_seat(result.net),
            "payments": [{"from": a, "to": b, "amount": n} for a, b, n in result.payments],
            "details": result.details,
        },
    }


def public_view(state: GameState, now: float | None = None) -> dict[str, Any]:
    """Everything the players at the table can see (architecture.md, Contract 4)."""
    return {
        "seq": state.seq,
        "session": {
            "ruleset": state.ruleset_name, "options": dict(state.options),
            "active": state.active, "dealer": state.dealer,
            "prevailing_wind": state.prevailing_wind, "game_over": state.game_over,
            "timers": state.table.timers,
        },
        "hand": None if state.hand is None else _hand_public(state, state.hand, now),
        "hands": [_record_json(r) for r in state.hands],
        "totals": _per_seat(state.totals),
        **_people(state),
        **({"riichi": public_riichi(state)} if state.rt is not None else {}),
    }


#: A seat's waits by (rule set, tiles, sets): a seat's tiles stay the same for most of the views
#: asked of it (the other seats' turns). The rule set is kept to rule out a reused id().
_WAITS: dict[tuple[Any, ...], tuple[Any, list[str]]] = {}
_WAITS_SIZE = 4096


def seat_view(
    state: GameState, position: int, now: float | None = None, *,
    table: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One seat's own view: its concealed tiles and waits, and the public view.

    ``table``: ``public_view(state, now)`` already built for this state (the same object is
    put in the result, not copied), so several seats' views share one.
    """
    if table is None:
        table = public_view(state, now)
    hand = state.hand
    if hand is None:
        return {"position": position, "wind": None, "hand": [], "melds": [], "bonus": [],
                "waits": [], "ready": False, "table": table}
    seat = hand.seat(position)
    waits: list[str] = []
    if seat.size() == 13 and state.ruleset is not None and hand.phase != "over":
        waits = _waits(state, seat)
    own = {
        "position": position,
        "wind": hand.wind_of(position),
        "hand": sort_tiles(seat.rack),
        "melds": [m.to_json() for m in seat.melds],
        "bonus": list(seat.bonus),
        "waits": waits,
        "ready": seat.ready,
        "table": table,
    }
    if hand.rh is not None:
        own["riichi"] = seat_riichi(state, hand, position, waits)
    return own


def _waits(state: GameState, seat: Seat) -> list[str]:
    """The seat's waits (13 tiles), from the cache when its tiles and sets are unchanged."""
    from controller.game.context import Ctx
    from controller.game.mahjong import waits_of

    key = (id(state.ruleset), tuple(sorted(seat.concealed() + list(seat.forming))),
           tuple((m.tiles, m.concealed) for m in seat.melds))
    cached = _WAITS.get(key)
    if cached is None or cached[0] is not state.ruleset:
        if len(_WAITS) >= _WAITS_SIZE:
            _WAITS.clear()
        cached = _WAITS[key] = (state.ruleset, sort_tiles(waits_of(Ctx(state), seat)))
    return list(cached[1])


def replay_summary(state: GameState) -> dict[str, Any]:
    """The ``replay`` command's output (FORMATS.md)."""
    hands = [_record_json(r) for r in state.hands]
    hand = state.hand
    if hand is not None and hand.phase != "over":
        hands.append({
            "number": hand.number, "dealer": hand.dealer,
            "prevailing_wind": hand.prevailing_wind, "result": None, "winner": None,
            "scores": _per_seat((0, 0, 0, 0)), "net": _per_seat((0, 0, 0, 0)),
            "win_source": None, "discarder": None, "winds": winds_of(hand.dealer),
            "names": names_json(state.names),
        })
    in_play = hand is not None and hand.phase != "over"
    return {
        "hands": hands,
        "totals": _per_seat(state.totals),
        "violations": [v.to_json() for v in state.violations],
        "state": {
            "hand_over": not in_play,
            "turn": hand.turn if in_play and hand is not None else None,
            "live_wall": hand.live_wall if hand is not None else None,
            "step": hand.step if in_play and hand is not None else None,
            "dealer": state.dealer,
            "prevailing_wind": state.prevailing_wind,
        },
        **_people(state),
        **({"final": state.rt.final} if state.rt is not None and state.rt.final else {}),
    }


def table_zones(state: GameState) -> dict[str, list[str]]:
    """Zone -> tile codes where every tile lies on the table as the game knows it (a finished
    hand included, until it is cleared; tiles out of place where they were put): what the
    table's readers should see after a restart. It names the concealed tiles of the racks: for
    the table source only, never shown."""
    from controller.game.zones import lying

    zones = lying(state)
    if not zones:
        return {}
    out = {zone: sort_tiles(counts.elements()) for zone, counts in zones.items()
           if zone != "wall" and (+counts or zone == "river")}
    return out
