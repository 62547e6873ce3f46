"""Who plays where (``player`` events) and the operator's penalties (``penalty`` events).

A name changes nothing in the game and is not taken back by an undo (a later ``player`` event
changes it). A penalty is a game-changing event an undo takes back: a transfer (or the rule
set's false-Mahjong penalty) moves points between players and enters the totals, which still
sum to zero; a deduction comes off one player's score and is kept apart (``deductions``).
"""

from __future__ import annotations

from typing import Any

from controller.game import riichi_end
from controller.game.context import Ctx, Refused
from controller.game.state import GameState, Penalty, evolve
from controller.scoring.rulesets.mcr import FALSE_MAHJONG_PENALTY

#: The false-Mahjong penalty each other player receives, where the rule set names one
#: (RULES.md section 10: mcr, 10 to each of the other three). Elsewhere the operator gives it.
FALSE_MAHJONG = {"mcr": FALSE_MAHJONG_PENALTY}


def seat_player(ctx: Ctx, state: GameState, body: dict[str, Any]) -> GameState:
    """Seat a player (or clear the seat with a null name); a name sits at one seat only."""
    seat = int(body["seat"])
    raw = body.get("name")
    name = " ".join(str(raw).split()) if raw is not None else None
    names = list(state.names)
    if name is not None:
        for i, other in enumerate(names):
            if i != seat - 1 and other is not None and other.casefold() == name.casefold():
                raise Refused("name_taken", seat, f"{name} already plays at seat {i + 1}: "
                              "swap or clear that seat first")
    names[seat - 1] = name
    ctx.notes.append(f"Seat {seat}: {name}" if name else f"Seat {seat} is free")
    return evolve(state, names=tuple(names))


def _hand_number(state: GameState) -> int:
    if state.hand is not None:
        return state.hand.number
    return len(state.hands)


def _effect(state: GameState, p: Penalty, sign: int) -> dict[str, Any]:
    """The totals and deductions with penalty ``p`` added (sign 1) or taken back (-1)."""
    totals, deductions = list(state.totals), list(state.deductions)
    if p.kind == "deduction" and p.seat is not None:
        deductions[p.seat - 1] += sign * p.amount
    for payer, payee, n in p.payments:
        totals[payer - 1] -= sign * n
        totals[payee - 1] += sign * n
    return {"totals": tuple(totals), "deductions": tuple(deductions)}


def cancel(ctx: Ctx, state: GameState, number: int) -> GameState:
    """Take back penalty ``number`` (1-based, in the order given): an undo that leaves the
    game's moves since then alone."""
    if not 1 <= number <= len(state.penalties) or state.penalties[number - 1].cancelled:
        raise Refused("no_such_penalty", None, f"there is no penalty {number} to take back")
    p = state.penalties[number - 1]
    if p.kind == "chombo":  # it voided a hand: only an undo brings that hand back
        raise Refused("bad_penalty", p.seat, f"penalty {number} is a chombo, which voided its "
                      "hand: take it back with an undo")
    penalties = list(state.penalties)
    penalties[number - 1] = evolve(p, cancelled=True)
    ctx.notes.append(f"Penalty {number} is taken back")
    return evolve(state, penalties=tuple(penalties), **_effect(state, p, -1))


def false_mahjong(state: GameState, seat: int, each: int, *, reason: str | None = None,
                  line: int | None = None) -> GameState:
    """The false-Mahjong penalty: ``seat`` pays ``each`` to every other player. For the
    operator's ``penalty`` event and for a rule set that gives it by itself (mcr: the engine
    calls this with the declaration's ``line``)."""
    payments = tuple((seat, p, int(each)) for p in (1, 2, 3, 4) if p != seat)
    record = Penalty("false_mahjong", _hand_number(state), payments, seat, 3 * int(each),
                     reason, state.names, line=line)
    return evolve(state, penalties=state.penalties + (record,), **_effect(state, record, 1))


def penalise(ctx: Ctx, state: GameState, body: dict[str, Any]) -> GameState:
    """Apply a penalty: a transfer adds to the totals, a deduction is kept apart."""
    if "cancel" in body:
        return cancel(ctx, state, int(body["cancel"]))
    kind = str(body["kind"])
    amount: Any = body.get("amount")
    reason = body.get("reason")
    number = _hand_number(state)
    if kind == "chombo":
        seat = int(body["seat"])
        if state.rt is None:
            raise Refused("bad_penalty", seat, "chombo is a riichi penalty: give a deduction")
        new = riichi_end.chombo(ctx, state, seat)
        record = Penalty(kind, number, (), seat, riichi_end.CHOMBO * 1000, reason, state.names)
        return evolve(new, penalties=state.penalties + (record,))
    if kind == "deduction":
        seat = int(body["seat"])
        record = Penalty(kind, number, (), seat, int(amount), reason, state.names)
        ctx.notes.append(f"Seat {seat} loses {amount} (deduction)")
        return evolve(state, penalties=state.penalties + (record,),
                      **_effect(state, record, 1))
    if kind == "false_mahjong":
        seat = int(body["seat"])
        each = amount if amount is not None else FALSE_MAHJONG.get(state.ruleset_name or "")
        if each is None:
            raise Refused("no_false_mahjong_penalty", seat,
                          f"the rule set {state.ruleset_name} names no false-Mahjong penalty: "
                          "give the amount each other player receives")
        ctx.notes.append(f"Seat {seat} pays {each} to each other player (false Mahjong)")
        return false_mahjong(state, seat, int(each), reason=reason)
    seat = int(body["from"])
    record = Penalty(kind, number, ((seat, int(body["to"]), int(amount)),), seat, int(amount),
                     reason, state.names)
    ctx.notes.append(f"Seat {seat} pays a penalty of {amount}")
    return evolve(state, penalties=state.penalties + (record,), **_effect(state, record, 1))


def penalty_json(p: Penalty) -> dict[str, Any]:
    return {
        "kind": p.kind, "hand": p.hand, "seat": p.seat, "amount": p.amount, "reason": p.reason,
        "payments": [{"from": a, "to": b, "amount": n} for a, b, n in p.payments],
        "names": names_json(p.names), "cancelled": p.cancelled, "line": p.line,
    }


def names_json(names: tuple[str | None, ...]) -> dict[str, str | None]:
    return {str(i + 1): n for i, n in enumerate(names)}
