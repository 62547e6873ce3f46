"""Riichi payments after a hand (RULES.md section 11, FORMATS.md's riichi ``settle``): rons and
tsumo with honba, pao, the deposits on the table, the tenpai payments of an exhaustive draw,
nagashi mangan. Seats are the four winds; the dealer is the seat named so."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from controller.scoring.model import ScoringError, Settlement
from controller.scoring.riichi.fu import MULTIPLES, base_points, paid
from controller.scoring.rules import RuleSet
from controller.scoring.rulesets.riichi import RIICHI_DEPOSIT
from controller.tiles import WINDS

SEATS = WINDS  # the seats by their winds, east first
TABLE = "table"
#: the limits' base points by name (FORMATS.md's ``limit_hand``)
LIMIT_BASE = {"mangan": 2000, "haneman": 3000, "baiman": 4000, "sanbaiman": 6000} | {
    f"{MULTIPLES[n]}yakuman": 8000 * n for n in range(1, len(MULTIPLES))}
TENPAI_POOL = 3000
Payment = tuple[str, str, int]


@dataclass(frozen=True)
class Winner:
    """A winner of the hand: its ``score`` answer (han, fu, limit), the seat liable under pao,
    and whether it is a nagashi mangan."""

    seat: str
    han: int
    fu: int
    limit: str | None
    pao: str | None = None
    nagashi: bool = False


@dataclass(frozen=True)
class Table:
    """What lies on the table: the honba counter, the deposits (this hand's included), the
    seats whose riichi stood this hand, and (at an exhaustive draw) the seats tenpai."""

    honba: int = 0
    sticks: int = 0
    riichi: tuple[str, ...] = ()
    tenpai: tuple[str, ...] = ()


def from_turn(start: str) -> list[str]:
    """The seats in turn order from ``start`` (``start`` first)."""
    i = SEATS.index(start)
    return [SEATS[(i + n) % 4] for n in range(4)]


def winner_base(w: Winner, options: Mapping[str, Any]) -> int:
    if w.limit is not None:
        if w.limit not in LIMIT_BASE:
            raise ScoringError(f"winner {w.seat}: limit_hand {w.limit!r} is unknown: use null, "
                               + ", ".join(LIMIT_BASE))
        return LIMIT_BASE[w.limit]
    base, limit = base_points(w.han, w.fu, 0, options)
    if limit is not None:
        raise ScoringError(f"winner {w.seat}: {w.han} han {w.fu} fu is a {limit}: "
                           f"limit_hand must say \"{limit}\" (as `score` answers)")
    return base


def settle_riichi(rs: RuleSet, dealer: str, discarder: str | None, winners: Sequence[Winner],
                  table: Table) -> Settlement[str]:
    """Payments and each seat's net; payments from the table (deposits) are ``"table"``'s."""
    _check(rs, dealer, discarder, winners, table)
    if winners and winners[0].nagashi:
        payments = [p for w in winners for p in _tsumo(w, dealer, 2000, 0)]
    elif not winners:
        payments = _tenpai(table.tenpai)
    elif discarder is None:
        w = winners[0]
        payments = _tsumo(w, dealer, winner_base(w, rs.options), table.honba)
    else:
        payments = [p for w in winners
                    for p in _ron(w, dealer, discarder, winner_base(w, rs.options), table.honba)]
    if winners and not winners[0].nagashi:
        payments += _deposits(winners, discarder, table)
    return Settlement(_merged(payments), _net(payments))


def _tsumo(w: Winner, dealer: str, base: int, honba: int) -> list[Payment]:
    first, other = paid(base, w.seat == dealer, True)
    out = [(s, w.seat, (first if s == dealer else other) + 100 * honba)
           for s in SEATS if s != w.seat]
    if w.pao is not None:  # the liable seat pays the whole value, honba included
        return [(w.pao, w.seat, sum(n for _, _, n in out))]
    return out


def _ron(w: Winner, dealer: str, discarder: str, base: int, honba: int) -> list[Payment]:
    value, _ = paid(base, w.seat == dealer, False)
    if w.pao is not None and w.pao != discarder:  # half each; the discarder pays the honba
        half = value // 2
        return [(w.pao, w.seat, half), (discarder, w.seat, value - half + 300 * honba)]
    return [(discarder, w.seat, value + 300 * honba)]


def _tenpai(tenpai: Sequence[str]) -> list[Payment]:
    noten = [s for s in SEATS if s not in tenpai]
    if not tenpai or not noten:
        return []
    each = TENPAI_POOL // len(noten) // len(tenpai)
    return [(n, t, each) for n in noten for t in tenpai]


def _deposits(winners: Sequence[Winner], discarder: str | None, table: Table) -> list[Payment]:
    """With one winner all the deposits go to it; with several, each winner whose riichi
    stood takes back its own and the rest go to the first winner in turn order."""
    if not table.sticks:
        return []
    if len(winners) == 1:
        return [(TABLE, winners[0].seat, RIICHI_DEPOSIT * table.sticks)]
    order = from_turn(discarder or winners[0].seat)
    seats = sorted((w.seat for w in winners), key=order.index)
    own = [s for s in seats if s in table.riichi]
    out = [(TABLE, s, RIICHI_DEPOSIT) for s in own]
    rest = table.sticks - len(own)
    if rest:
        out.append((TABLE, seats[0], RIICHI_DEPOSIT * rest))
    return out


def _merged(payments: list[Payment]) -> list[Payment]:
    """One payment per payer and payee, in the order first made."""
    total: dict[tuple[str, str], int] = {}
    for a, b, n in payments:
        total[a, b] = total.get((a, b), 0) + n
    return [(a, b, n) for (a, b), n in total.items() if n]


def _net(payments: list[Payment]) -> dict[str, int]:
    net = dict.fromkeys(SEATS, 0)
    for a, b, n in payments:
        if a != TABLE:
            net[a] -= n
        net[b] += n
    return net


def _check(rs: RuleSet, dealer: str, discarder: str | None,  # noqa: C901 - one line a rule
           winners: Sequence[Winner], table: Table) -> None:
    for name, seat in (("dealer", dealer), ("discarder", discarder)):
        if seat is not None and seat not in SEATS:
            raise ScoringError(f"{name} {seat!r} is not a seat: use {', '.join(SEATS)}")
    seats = [w.seat for w in winners]
    for seat in [*seats, *table.riichi, *table.tenpai, *(w.pao for w in winners if w.pao)]:
        if seat not in SEATS:
            raise ScoringError(f"{seat!r} is not a seat: use {', '.join(SEATS)}")
    if len(set(seats)) != len(seats) or discarder in seats:
        raise ScoringError("each winner once, and never the discarder")
    if table.honba < 0 or table.sticks < len(set(table.riichi)):
        raise ScoringError("honba must be >= 0 and riichi_sticks at least the seats in riichi")
    nagashi = [w for w in winners if w.nagashi]
    if nagashi and not rs.options["nagashi_mangan"]:
        raise ScoringError("a nagashi mangan winner needs the option nagashi_mangan")
    if nagashi and (len(nagashi) != len(winners) or discarder is not None):
        raise ScoringError("nagashi mangan is paid at an exhaustive draw: no discarder, and no "
                           "other winner")
    if not nagashi and discarder is None and len(winners) > 1:
        raise ScoringError("a tsumo has one winner: several winners need the discarder")
    if len(winners) > 1 and rs.options["multiple_ron"] == "head_bump" and not nagashi:
        raise ScoringError("option multiple_ron head_bump: only one ron wins a discard")
    for w in winners:
        if w.pao is not None and w.pao == w.seat:
            raise ScoringError(f"winner {w.seat} cannot be liable (pao) for its own hand")
        if w.pao is not None and not rs.options["pao"]:
            raise ScoringError("pao is named but the option pao is off")
