"""The end of a riichi hand (RULES.md section 11): the winners scored with the dora (and the ura
once laid), pao, several rons, the exhaustive draw's tenpai payments from the racks, nagashi
mangan; then the table's counters, the dealer's repeat and the hanchan's end with the uma."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from controller.game.context import Ctx, Refused, name
from controller.game.riichi import RiichiHand, seat_waits
from controller.game.state import GameState, Hand, HandRecord, Result, evolve
from controller.scoring import HandInput as _HI
from controller.scoring import score_hand
from controller.scoring.riichi.settle import Table, Winner, settle_riichi
from controller.scoring.rulesets.riichi import RIICHI_DEPOSIT, START_POINTS
from controller.tiles import DRAGON_CODES, WIND_CODES, is_terminal_or_honour

UMA = (15, 5, -5, -15)  # thousands, places 1 to 4
CHOMBO = 20  # thousands, taken from the result after the uma (EMA)


@dataclass(frozen=True, slots=True)
class RiichiTable:
    """The counters of a hanchan: honba, the deposits on the table, chombo per seat; the state
    a finished hand was closed on (so the ura and noten can settle it again); the final."""

    honba: int = 0
    sticks: int = 0
    chombo: tuple[int, ...] = (0, 0, 0, 0)
    before: Any = None  # GameState before the newest hand was closed
    final: Any = None  # dict: the hanchan's end (FORMATS.md `final`)


def _wind(hand: Hand, pos: int) -> str:
    return hand.wind_of(pos)


def _pos(hand: Hand, wind: str) -> int:
    return next(p for p in (1, 2, 3, 4) if hand.wind_of(p) == wind)


def stood(hand: Hand, ron_discarder: int | None) -> tuple[int, ...]:
    """The seats whose riichi stood: all declared, but a riichi discard won on is void."""
    rh: RiichiHand = hand.rh
    void = ron_discarder if rh.riichi_discard == hand.discards_total else None
    return tuple(p for p in rh.riichi if p != void)


def _pao(hand: Hand, pos: int, items: list[str]) -> int | None:
    """The seat whose discard gave the third dragon set or the fourth wind set (RULES.md 11)."""
    seat = hand.seat(pos)
    for yakuman, kinds, count in (("daisangen", DRAGON_CODES, 3), ("daisuushii", WIND_CODES, 4)):
        if not any(yakuman in i.lower() for i in items):
            continue
        sets = [m for m in seat.melds if m.tiles[0] in kinds and m.kind in ("pung", "kong")]
        if len(sets) == count and sets[-1].claimed_from is not None:
            return int(sets[-1].claimed_from)
    return None


def _score(ctx: Ctx, hand: Hand, pos: int, inp: _HI) -> tuple[Any, Winner]:
    rh: RiichiHand = hand.rh
    ura = rh.ura if len(rh.ura) == len(rh.dora) and {"riichi", "double_riichi"} & set(
        inp.flags) else ()
    inp = replace(inp, dora_indicators=rh.dora, ura_dora_indicators=ura,
                  honba=ctx.state.rt.honba)
    scored = score_hand(inp)
    items = [i.name for i in scored.items]
    pao = _pao(hand, pos, items) if ctx.option("pao", True) else None
    w = Winner(_wind(hand, pos), int(scored.doubles), int(scored.points), scored.limit_hand,
               _wind(hand, pao) if pao is not None and pao != pos else None)
    return scored, w


def finish_win(ctx: Ctx, hand: Hand, wins: list[tuple[int, _HI]], discarder: int | None) -> Hand:
    """Score every winner (turn order from the discarder), settle, close the hand."""
    rh: RiichiHand = hand.rh
    hand = evolve(hand, rh=evolve(rh, wins=tuple(wins), win_discarder=discarder))
    return _settled(ctx, hand)


def _settled(ctx: Ctx, hand: Hand) -> Hand:
    rh: RiichiHand = hand.rh
    rt: RiichiTable = ctx.state.rt
    discarder = rh.win_discarder
    up = stood(hand, discarder)
    scores, winners, details = [0, 0, 0, 0], [], {}
    for pos, inp in rh.wins:
        scored, w = _score(ctx, hand, pos, inp)
        scores[pos - 1] = int(scored.score)
        winners.append(w)
        details[str(pos)] = {"score": scored.to_json(), "hand": list(inp.hand),
                             "melds": [m.to_json() for m in hand.seat(pos).melds],
                             "wind": _wind(hand, pos), "pao": w.pao}
    table = Table(rt.honba, rt.sticks + len(up), tuple(_wind(hand, p) for p in up))
    st = settle_riichi(ctx.ruleset, _wind(hand, hand.dealer),
                       _wind(hand, discarder) if discarder is not None else None, winners, table)
    first = rh.wins[0][0]
    return _result(ctx, hand, "mahjong", [p for p, _ in rh.wins], scores, st, up, (), details,
                   win_source=rh.wins[0][1].win_source, discarder=discarder, winner=first)


def _result(ctx: Ctx, hand: Hand, kind: str, winners: list[int], scores: list[int], st: Any,
            up: tuple[int, ...], tenpai: tuple[int, ...], details: dict[str, Any],
            abortive: str | None = None, **extra: Any) -> Hand:
    rh: RiichiHand = hand.rh
    rt: RiichiTable = ctx.state.rt
    net = [int(st.net[_wind(hand, p)]) - (RIICHI_DEPOSIT if p in up else 0)  # every wind named
           for p in (1, 2, 3, 4)]
    taken = sum(n for f, _t, n in st.payments if f == "table") // RIICHI_DEPOSIT
    payments = tuple((0 if f == "table" else _pos(hand, f), _pos(hand, t), int(n))
                     for f, t, n in st.payments)
    details["riichi"] = {
        "honba": rt.honba, "riichi_sticks": rt.sticks, "riichi": list(up),
        "dora_indicators": list(rh.dora), "ura_dora_indicators": list(rh.ura),
        "winners": winners, "tenpai": list(tenpai), "sticks_after": rt.sticks + len(up) - taken,
        # a win reads no tenpai seats: the dealer stays on one only by winning it
        "dealer_stays": hand.dealer in winners or hand.dealer in tenpai or abortive is not None,
    }
    if abortive is not None:
        details["riichi"]["abortive"] = abortive
    result = Result(kind, extra.pop("winner", None), tuple(scores), tuple(net),  # type: ignore[arg-type]
                    details, payments, **extra)
    return over(hand, result)


def over(hand: Hand, result: Result) -> Hand:
    """The hand is over, in every rule set (endhand.py uses this one)."""
    return evolve(
        hand, phase="over", result=result, step=None, claim=None, claimants=(), awarded=None,
        taken=None, robbable=None, robbers=(), rob_taken=None, claim_deadline=None,
        turn_deadline=None,
    )


def abortive_result(ctx: Ctx, hand: Hand, st: Any, up: tuple[int, ...],
                    details: dict[str, Any], kind: str, by: int | None) -> Hand:
    """An abortive draw (riichi_abort): a washout with ``abortive`` naming which, no tenpai
    read, the dealer staying."""
    if by is not None:
        details[str(by)]["declared"] = kind
    return _result(ctx, hand, "washout", [], [0, 0, 0, 0], st, up, (), details, abortive=kind)


# --- the exhaustive draw ------------------------------------------------------------------------


def tenpai_seats(ctx: Ctx, hand: Hand) -> tuple[int, ...]:
    """Read from the racks: a seat waits when its hand does, unless dead or declared noten."""
    rh: RiichiHand = hand.rh
    return tuple(s.position for s in hand.seats
                 if s.position not in rh.dead and s.position not in rh.noten
                 and seat_waits(ctx, s))


def _nagashi(hand: Hand) -> list[int]:
    rh: RiichiHand = hand.rh
    return [p for p in (1, 2, 3, 4) if rh.discards[p - 1] and p not in rh.called_from
            and all(is_terminal_or_honour(t) for t in rh.discards[p - 1])]


def exhaustive(ctx: Ctx, hand: Hand) -> Hand:
    """The live wall is used up and the last discard is not won on (RULES.md 11)."""
    rt: RiichiTable = ctx.state.rt
    up = stood(hand, None)
    tenpai = tenpai_seats(ctx, hand)
    details: dict[str, Any] = {str(s.position): {"wind": _wind(hand, s.position),
                                                  "tenpai": s.position in tenpai}
                               for s in hand.seats}
    nagashi = _nagashi(hand) if ctx.option("nagashi_mangan", False) else []
    winners = [Winner(_wind(hand, p), 5, 30, "mangan", nagashi=True) for p in nagashi]
    table = Table(rt.honba, rt.sticks + len(up), tuple(_wind(hand, p) for p in up),
                  tuple(_wind(hand, p) for p in tenpai))
    st = settle_riichi(ctx.ruleset, _wind(hand, hand.dealer), None, winners, table)
    kind = "nagashi_mangan" if nagashi else "washout"
    return _result(ctx, hand, kind, nagashi, [0, 0, 0, 0], st, up, tenpai, details)


# --- closing a hand: the counters, the dealer, the hanchan ---------------------------------------


def close(state: GameState, hand: Hand) -> GameState:
    """Record the hand, add its nets, move the counters and the dealership on."""
    result = hand.result
    assert result is not None
    rt: RiichiTable = state.rt
    info = dict(result.details.get("riichi") or {})
    totals = tuple(a + b for a, b in zip(state.totals, result.net, strict=True))
    info["points"] = {str(p): START_POINTS + totals[p - 1] for p in (1, 2, 3, 4)}
    record = HandRecord(
        hand.number, hand.dealer, hand.prevailing_wind, result.result, result.winner,
        result.scores, result.net, result.win_source, result.discarder, state.names, info)
    changes: dict[str, Any] = {"hand": hand, "hands": state.hands + (record,), "totals": totals}
    if result.result == "chombo":
        return evolve(state, rt=evolve(rt, before=state), **changes)
    stays = bool(info.get("dealer_stays"))
    won = result.result == "mahjong"
    honba = 0 if won and not stays else rt.honba + 1
    new_rt = evolve(rt, honba=honba, sticks=int(info["sticks_after"]), before=state)
    if stays:  # riichi keeps no streak (only dmjl's nine in a row reads it, endhand.py)
        return evolve(state, rt=new_rt, **changes)
    passes, wind, over = state.passes + 1, state.prevailing_wind, False
    if passes == 4:
        passes, over = 0, wind == "south"
        wind = "south" if wind == "east" else "west"
    new = evolve(state, dealer=hand.dealer % 4 + 1, passes=passes, prevailing_wind=wind,
                 game_over=over, rt=new_rt, **changes)
    if over:
        new = evolve(new, rt=evolve(new_rt, final=final(new)))
    return new


def final(state: GameState) -> dict[str, Any]:
    """The hanchan's end: deposits to first place, the uma, each result in thousands."""
    rt: RiichiTable = state.rt
    return hanchan_result([START_POINTS + t for t in state.totals], rt.sticks, rt.chombo)


def hanchan_result(points: list[int], sticks: int, chombo: tuple[int, ...] | list[int],
                   ended: bool = True) -> dict[str, Any]:
    """Points, uma, penalties and each result in thousands (RULES.md 11), from each seat's
    points (positions 1-4 in order), the deposits on the table and the chombo per seat. At the
    end (``ended``) the deposits go to first place (shared equally when tied); before it they
    stay on the table and the uma is that of the places as they stand (provisional). The
    club's places (controller.sessions.places) use it too: one computation."""
    points = list(points)
    left = sticks * RIICHI_DEPOSIT
    if ended:
        top = max(points)
        firsts = [p for p in range(4) if points[p] == top]
        for p in firsts:
            points[p] += left // len(firsts)
    order = sorted(range(4), key=lambda p: -points[p])
    uma = [0.0] * 4
    for p in range(4):
        tied = [q for q in range(4) if points[q] == points[p]]
        places = sorted(order.index(q) for q in tied)
        uma[p] = sum(UMA[i] for i in places) / len(tied)
    result = [round((points[p] - START_POINTS) / 1000 + uma[p] - CHOMBO * chombo[p], 1)
              for p in range(4)]
    key = [str(p) for p in (1, 2, 3, 4)]
    return {"points": dict(zip(key, points, strict=True)), "uma": dict(zip(key, uma, strict=True)),
            "penalties": {k: -CHOMBO * c for k, c in zip(key, chombo, strict=True)},
            "deposits": left if ended else 0, "result": dict(zip(key, result, strict=True))}


def reclose(ctx: Ctx, state: GameState, hand: Hand) -> GameState:
    """The newest hand settled again (the ura laid, a noten declared, a chombo): from the
    state it was closed on."""
    before: GameState = state.rt.before
    base = evolve(before, rt=evolve(before.rt, chombo=state.rt.chombo))
    sub = replace(ctx, state=base)
    if hand.result is not None and hand.result.result in ("washout", "nagashi_mangan"):
        hand = exhaustive(sub, hand)  # a noten declared after it: east stays only if tenpai
    elif hand.rh.wins:
        hand = _settled(sub, hand)
    new = close(base, hand)
    return evolve(new, cleared=state.cleared, names=state.names, penalties=state.penalties)


def lay_ura(ctx: Ctx, state: GameState, tile: str, out: tuple[int, ...]) -> GameState:
    """An ura indicator laid after a riichi winner's win: recorded at once, scored once all are
    laid."""
    hand = state.hand
    assert hand is not None and hand.rh is not None
    rh: RiichiHand = hand.rh
    in_riichi = any(p in rh.riichi for p, _ in rh.wins)
    if state.rt.before is None or not in_riichi or len(rh.ura) >= len(rh.dora):
        raise Refused("tile_out_of_place", None, "no ura indicator is due: put the tile back")
    hand = evolve(hand, out=out, rh=evolve(rh, ura=rh.ura + (tile,)))
    ctx.notes.append(f"Ura dora indicator {len(rh.ura) + 1}: {tile}")
    return reclose(ctx, state, hand)  # the record shows it; _score counts them once all are laid


def noten(ctx: Ctx, state: GameState, pos: int) -> GameState:
    """A tenpai seat (not in riichi) declares noten after the exhaustive draw."""
    hand = state.hand
    who = name(hand, pos) if hand is not None else f"seat {pos}"
    if hand is None or hand.rh is None or hand.result is None or (
            hand.result.result not in ("washout", "nagashi_mangan")):
        raise Refused("no_hand", pos, f"{who} may declare noten only after an exhaustive draw")
    rh: RiichiHand = hand.rh
    if rh.abort is not None:
        raise Refused("no_hand", pos, f"the hand ended in an abortive draw: {who}'s noten "
                      "changes nothing (no tenpai payments)")
    if pos in rh.riichi:
        raise Refused("riichi_hand_changed", pos, f"{who} is in riichi: it cannot declare noten")
    if state.cleared or pos in rh.noten:
        raise Refused("no_hand", pos, f"the table is being cleared: {who} counts as read")
    ctx.notes.append(f"{who} declares noten")
    return reclose(ctx, state, evolve(hand, rh=evolve(rh, noten=rh.noten + (pos,))))


def chombo(ctx: Ctx, state: GameState, pos: int) -> GameState:
    """The operator's chombo: the hand under way or just ended is void and replayed."""
    hand = state.hand
    rt: RiichiTable = state.rt
    rt = evolve(rt, chombo=tuple(c + (p == pos) for p, c in zip((1, 2, 3, 4), rt.chombo,
                                                                  strict=True)))
    if hand is None:
        raise Refused("no_hand", pos, "no hand to void: chombo is given during or after a hand")
    ctx.notes.append(f"Chombo: {name(hand, pos)} pays {CHOMBO} from the result; the hand is "
                     "replayed")
    base = state
    if hand.phase == "over":
        base = rt.before
    base = evolve(base, rt=evolve(base.rt, chombo=rt.chombo))
    info = {"honba": base.rt.honba, "riichi_sticks": base.rt.sticks, "riichi": [],
            "dora_indicators": list(hand.rh.dora), "ura_dora_indicators": [], "winners": [],
            "tenpai": [], "sticks_after": base.rt.sticks, "chombo": pos}
    void = over(hand, Result("chombo", None, (0, 0, 0, 0), (0, 0, 0, 0), {"riichi": info}))
    new = close(base, void)
    return evolve(new, cleared=state.cleared, names=state.names, penalties=state.penalties)

