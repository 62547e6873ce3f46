"""The end of a hand: every hand scored, settlement, the dealer's rotation and the wind rounds."""

from __future__ import annotations

from typing import Any

from controller.game import riichi_end
from controller.game.context import Ctx
from controller.game.riichi_end import over  # one end of a hand for every rule set
from controller.game.state import GameState, Hand, HandRecord, Result, Seat, evolve
from controller.scoring import HandInput, ScoringError, score_hand, settle
from controller.tiles import Meld, is_bonus, next_wind, sort_tiles

NINE_IN_A_ROW = 9


def _loser_input(ctx: Ctx, hand: Hand, seat: Seat) -> HandInput:
    concealed = seat.concealed() + list(seat.forming)
    return HandInput(
        ruleset=ctx.ruleset,
        seat_wind=hand.wind_of(seat.position),
        prevailing_wind=hand.prevailing_wind,
        melds=[Meld(m.tiles, m.concealed) for m in seat.melds],
        hand=concealed,
        bonus=seat.bonus + tuple(t for t in seat.rack if is_bonus(t)),
    )


def _detail(hand: Hand, seat: Seat, score: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "wind": hand.wind_of(seat.position),
        "hand": sort_tiles(seat.concealed() + list(seat.forming)),
        "melds": [m.to_json() for m in seat.melds],
        "bonus": list(seat.bonus) + [t for t in seat.rack if is_bonus(t)],
        "dead": seat.dead,
        "score": score,
    }


def finish_mahjong(
    ctx: Ctx, hand: Hand, winner: int, win: HandInput, discarder: int | None = None
) -> Hand:
    """Score all four hands (the winner with ``win``), settle, and close the hand.

    ``discarder``: the seat whose discard (or added kong) gave the Mahjong.
    """
    if hand.rh is not None:
        return riichi_end.finish_win(ctx, hand, [(winner, win)], discarder)
    scores = [0, 0, 0, 0]
    details: dict[str, Any] = {}
    for seat in hand.seats:
        pos = seat.position
        score_json: dict[str, Any] | None = None
        if pos == winner or not seat.dead:
            try:
                scored = score_hand(win if pos == winner else _loser_input(ctx, hand, seat))
                scores[pos - 1] = scored.score
                score_json = scored.to_json()
                if scored.unit != "points":  # the pages show fans their own way (mcr)
                    score_json["unit"] = scored.unit
            except ScoringError as exc:
                ctx.notes.append(f"{hand.wind_of(pos)} could not be scored: {exc}")
        details[str(pos)] = _detail(hand, seat, score_json)
    details[str(winner)]["hand"] = list(win.hand)
    if _nine_in_a_row(ctx, hand, winner):
        scores[winner - 1] = int(ctx.ruleset.limit)
        ctx.notes.append("East wins the ninth hand in a row: a limit, and the winds rotate")
    st = settle(ctx.ruleset, hand.dealer, winner, {p: scores[p - 1] for p in (1, 2, 3, 4)},
                discarder if discarder != winner else None)
    net = tuple(int(st.net[p]) for p in (1, 2, 3, 4))  # settle nets every seat it scored
    result = Result(
        "mahjong", winner, tuple(scores), net, details,  # type: ignore[arg-type]
        tuple((int(a), int(b), int(n)) for a, b, n in st.payments),
        win_source=win.win_source, discarder=discarder,
    )
    return over(hand, result)


def _nine_in_a_row(ctx: Ctx, hand: Hand, winner: int) -> bool:
    return (
        ctx.ruleset.name == "dmjl"
        and winner == hand.dealer
        and ctx.state.streak + 1 >= NINE_IN_A_ROW
    )


def finish_washout(ctx: Ctx, hand: Hand) -> Hand:
    """A washout scores nothing and pays nothing (riichi: the exhaustive draw's payments)."""
    if hand.rh is not None:
        return riichi_end.exhaustive(ctx, hand)
    details = {str(s.position): _detail(hand, s, None) for s in hand.seats}
    return over(_as_it_lies(hand),
                 Result("washout", None, (0, 0, 0, 0), (0, 0, 0, 0), details))


def _as_it_lies(hand: Hand) -> Hand:
    """A hand ended in the middle of a claim (the operator's washout): the claimed discard
    stays where it lies, on the claimer's meld strip or in the rack it was taken into for
    Mahjong, not back on the pad when the claim is dropped (the players clear it from there,
    and the table's readers agree with the game)."""
    live, claim = hand.discard, hand.claim
    if live is None:
        return hand
    if claim is not None and claim.discard_on_strip:
        seat = hand.seat(claim.seat)
        return hand.with_seat(evolve(seat, forming=seat.forming + (claim.tile,)), discard=None)
    if hand.taken is not None:  # already in the taker's rack
        return evolve(hand, discard=None)
    return hand


def close(state: GameState, hand: Hand) -> GameState:
    """Record a finished hand, add its nets to the totals and move the dealership on."""
    if state.rt is not None:
        return riichi_end.close(state, hand)
    result = hand.result
    assert result is not None
    record = HandRecord(
        hand.number, hand.dealer, hand.prevailing_wind, result.result, result.winner,
        result.scores, result.net, result.win_source, result.discarder, state.names,
    )
    totals = tuple(a + b for a, b in zip(state.totals, result.net, strict=True))
    changes: dict[str, Any] = {"hand": hand, "hands": state.hands + (record,), "totals": totals}
    mcr = state.ruleset.name == "mcr"  # the deal passes after every hand
    if result.winner is None and not mcr:
        return evolve(state, **changes)
    rotate = mcr or result.winner != hand.dealer
    streak = state.streak + 1  # east's wins in a row, read only when east stays
    if not rotate and state.ruleset.name == "dmjl" and streak >= NINE_IN_A_ROW:
        rotate = True
    if not rotate:
        return evolve(state, streak=streak, **changes)
    dealer = hand.dealer % 4 + 1
    passes = state.passes + 1
    wind = state.prevailing_wind
    over = state.game_over
    if passes == 4:
        passes = 0
        over = wind == "north"
        wind = next_wind(wind)
    return evolve(
        state, dealer=dealer, passes=passes, prevailing_wind=wind, streak=0, game_over=over,
        **changes,
    )
