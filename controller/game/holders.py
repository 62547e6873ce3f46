"""The operator's seat-holder correction: who held a seat from which hand.

``{"correct": {"holder": {"seat": 1, "name": "Ann Lee", "from": 3}}}`` says Ann Lee's stint
at seat 1 began with hand 3: the finished hands from 3 on that recorded the holder of hand 3
(until the record names someone else) become hers, and hands just before 3 recorded as hers
go back to whoever held the seat before her (nobody: an anonymous seat). With ``"to": 5``
exactly hands 3-5 become hers. When her run reaches the newest finished hand (no ``to``) and
the seat's holder now is the one it replaced, she holds the seat now too. Penalties given in a
changed hand follow it. A name still sits at one seat in any hand (``name_taken``).
"""

from __future__ import annotations

from typing import Any

from controller.game.context import Ctx, Refused
from controller.game.state import GameState, HandRecord, Penalty, evolve


def _same(a: str | None, b: str | None) -> bool:
    return (a or "").casefold() == (b or "").casefold()


def _tidy(raw: Any) -> str | None:
    return " ".join(str(raw).split()) or None if raw is not None else None


def _holders(seq: list[str | None], k: int, name: str | None, to: int | None
             ) -> tuple[list[str | None], bool]:
    """The seat's holder per finished hand after the correction, and whether the new stint
    runs on to the present (the newest hand, with no ``to``)."""
    new = list(seq)
    old, j = seq[k], k
    while j < len(seq) and (j <= to if to is not None else _same(seq[j], old)):
        new[j] = name
        j += 1
    i = k - 1
    while i >= 0 and name is not None and _same(seq[i], name):
        i -= 1
    for x in range(i + 1, k):  # name's stint just before "from" was the holder's before it
        new[x] = seq[i] if i >= 0 else None
    return new, to is None and j == len(seq)


def hold_seat(ctx: Ctx, state: GameState, body: dict[str, Any]) -> GameState:
    seat, name, start = int(body["seat"]), _tidy(body.get("name")), int(body["from"])
    numbers = [r.number for r in state.hands]
    if start not in numbers:
        raise Refused("no_such_hand", seat, f"hand {start} has not finished in this session: "
                      "the correction is for finished hands (seat a player for the hand in play)")
    end = body.get("to")
    if end is not None and end not in numbers:
        raise Refused("no_such_hand", seat, f"hand {end} has not finished in this session")
    k = numbers.index(start)
    seq = [r.names[seat - 1] for r in state.hands]
    new, now = _holders(seq, k, name, numbers.index(end) if end is not None else None)
    changed = {numbers[i]: (seq[i], new[i]) for i in range(len(seq)) if seq[i] != new[i]}
    hands = tuple(_rename(r, seat, new[i]) if numbers[i] in changed else r
                  for i, r in enumerate(state.hands))
    names = list(state.names)
    if now and seq and _same(names[seat - 1], seq[-1]):
        names[seat - 1] = name
    for record in hands:
        if record.number in changed:
            _one_seat_each(record.names, f"in hand {record.number}")
    _one_seat_each(tuple(names), "now")
    penalties = tuple(_follow(p, seat, changed) for p in state.penalties)
    who = name or f"nobody named (Seat {seat})"
    ctx.notes.append(f"Seat {seat} was held by {who} from hand {start}"
                     + (f" to hand {end}" if end is not None else ""))
    return evolve(state, hands=hands, penalties=penalties, names=tuple(names))


def _rename(record: HandRecord, seat: int, name: str | None) -> HandRecord:
    names = list(record.names)
    names[seat - 1] = name
    return evolve(record, names=tuple(names))


def _one_seat_each(names: tuple[str | None, ...], where: str) -> None:
    for i, name in enumerate(names):
        seats = [j + 1 for j, n in enumerate(names) if n is not None and _same(n, name)]
        if name is not None and len(seats) > 1:
            raise Refused("name_taken", i + 1, f"{name} would sit at seats "
                          f"{' and '.join(map(str, seats))} {where}: correct the other seat "
                          "first")


def _follow(p: Penalty, seat: int, changed: dict[int, tuple[str | None, str | None]]
            ) -> Penalty:
    """A penalty given in a changed hand, to the seat's old holder, goes to the new one."""
    if p.hand not in changed or not _same(p.names[seat - 1], changed[p.hand][0]):
        return p
    names = list(p.names)
    names[seat - 1] = changed[p.hand][1]
    return evolve(p, names=tuple(names))
