"""Who pays whom at the end of a riichi hand (issue 29: game-end-riichi's survivors), each
figure from RULES.md section 11: pao for the fourth wind set (on a ron by another's discard half
from the liable seat and half from the discarder; on a tsumo all of it from the liable seat;
none with the option ``pao: false``); with several rons, each winner whose riichi stood takes
back its own stick and the ura counts for winners in riichi alone; honba +300 per counter to
the winner; nagashi mangan as a mangan tsumo; an abortive draw scores and pays nothing.
Points: base = fu x 2^(han + 2), a non-dealer's ron 4 x base (a dealer's 6 x), rounded up to
100; a mangan 2,000 base, a haneman 3,000, a yakuman 8,000."""

from __future__ import annotations

from collections import Counter
from typing import Any

from controller.game import apply, new_game, public_view, replay_summary
from controller.game.state import GameState
from tests.game import test_riichi_abortive as abortive
from tests.game.logbuilder import Log
from tests.game.test_riichi_hanchan_end import _hand
from tests.game.test_riichi_rules import _burn, _last, _log, _riichi_then_ron, several_rons

#: spare draws that nobody can pung or win on
AVOID = ["ew", "sw", "ww", "nw", "1c"]
SOUTH_WINDS = "ewew swsw wwww nwnwnw 1c 2d3d4d"


def _taken(log: Log) -> GameState:
    state, out = _last(log)
    assert out.accepted, out.violation
    return state


def _three_wind_sets_to_south(log: Log) -> None:
    """South claims East's ew, North's sw and East's ww (a kong), discarding 2d, 3d, 4d."""
    log.discard(1, "ew").claim(2, "ew", "ewew").discard(2, "2d")
    log.draw_discard(3, log.spare(avoid=AVOID))
    log.draw(4, log.spare(avoid=AVOID))
    log.discard(4, "sw").claim(2, "sw", "swsw").discard(2, "3d")
    for seat in (3, 4):
        log.draw_discard(seat, log.spare(avoid=AVOID))
    log.draw(1, log.spare(avoid=AVOID))
    log.discard(1, "ww").claim(2, "ww", "wwww").discard(2, "4d")


def _four_winds_for_south(options: dict[str, Any] | None = None) -> Log:
    """South pungs East's ew, North's sw and East's ww (discarding 2d, 3d, 4d), then makes
    an open kong of West's nw (its replacement rd discarded): four wind sets, waiting on 1c
    alone (daisuushii). West is liable: its discard gave the fourth wind set."""
    log = _log(options, east="ew ww 1c2c3c 4c5c6c 7c8c9c 6b6b 2b", south=SOUTH_WINDS,
               west="nw 1b2b3b 4b5b6b 7b8b9b 3d3d 7d",
               north="sw 1c 6d6d 7d7d 8d8d 3c3c 4c4c 9c")
    _three_wind_sets_to_south(log)
    log.draw(3, log.spare(avoid=AVOID))
    log.discard(3, "nw").claim(2, "nw", "nwnwnw")
    log.move("5b", "wall", "dora")  # the kong's indicator, then its replacement
    log.draw(2, "rd")
    log.discard(2, "rd")
    log.draw_discard(3, log.spare(avoid=AVOID))
    return log


def _north_discards_1c(log: Log) -> Log:
    log.draw(4, log.spare(avoid=AVOID))
    return log.discard(4, "1c").declare(2, "mahjong").move("1c", "discard", "rack:2")


def test_pao_for_the_fourth_wind_set_on_a_ron() -> None:
    """North's 1c: daisuushii, a non-dealer's yakuman, 32,000: West (liable) and North (the
    discarder) 16,000 each."""
    state = _taken(_north_discards_1c(_four_winds_for_south()))
    record = replay_summary(state)["hands"][0]
    assert record["net"] == {"1": 0, "2": 32_000, "3": -16_000, "4": -16_000}
    assert record["scores"] == {"1": 0, "2": 32_000, "3": 0, "4": 0}
    assert (record["winner"], record["discarder"], record["win_source"]) == (2, 4, "discard")
    details = state.hand.result.details["2"]
    assert details["pao"] == "west" and details["wind"] == "south"
    assert sorted(m["kind"] for m in details["melds"]) == ["kong", "pung", "pung", "pung"]
    # the winner's hand as it won: its one concealed tile and the 1c won on
    assert Counter(details["hand"]) == Counter({"1c": 2})


def test_pao_for_the_fourth_wind_set_on_a_tsumo_and_off_by_option() -> None:
    log = _four_winds_for_south()
    log.draw_discard(4, log.spare(avoid=AVOID))
    log.draw_discard(1, log.spare(avoid=AVOID))
    log.draw(2, "1c")
    state = _taken(log.declare(2, "mahjong"))
    record = replay_summary(state)["hands"][0]
    assert record["net"] == {"1": 0, "2": 32_000, "3": -32_000, "4": 0}  # all from West
    assert record["win_source"] == "wall" and record["discarder"] is None
    state = _taken(_north_discards_1c(_four_winds_for_south({"pao": False})))
    assert replay_summary(state)["hands"][0]["net"] == {
        "1": 0, "2": 32_000, "3": 0, "4": -32_000}  # the discarder pays it all
    assert state.hand.result.details["2"]["pao"] is None


def _two_rons_west_in_riichi() -> Log:
    """North's nw is won on by South (first in turn order from North; ittsu, the dora 1b) and
    West, in (double) riichi since its first discard (ittsu)."""
    south, west = "1d2d3d 4d5d6d 7d8d9d 1b2b3b nw", "1c2c3c 4c5c6c 7c8c9c 2b3b4b nw"
    east = "1b1b 5b5b 6d6d 9b 8b gdgd rdrd wd 3d"
    log = _log(east=east, south=south, west=west, north="5d5d 6b6b 7c 8c 9b9b nwnw 3d 3b 4b")
    log.discard(1, "wd")
    log.draw(2, "1c")
    log.discard(2, "1c")
    log.draw(3, "ew")
    log.declare(3, "ready").discard(3, "ew")
    log.draw(4, "sw")
    log.discard(4, "nw").declare(2, "mahjong").declare(3, "mahjong")
    return log.move("nw", "discard", "rack:2")


def test_each_riichi_winner_takes_back_its_own_stick_and_the_ura_is_its_alone() -> None:
    """South: ittsu 2 + dora 1 = 3 han, 40 fu: 40 x 32 x 4 = 5,120 -> 5,200. West: double
    riichi 2 + ippatsu 1 + ittsu 2 = 5 han, a mangan: 8,000, and its stick back (not South's,
    although South comes first). The ura indicator 9d makes 1d an ura dora: South holds it
    but is not in riichi (with it South would have 4 han 40 fu, a mangan)."""
    log = _two_rons_west_in_riichi()
    state = _taken(log)
    expected = {"1": 0, "2": 5200, "3": 8000, "4": -13_200}
    record = replay_summary(state)["hands"][0]
    assert record["net"] == expected and record["scores"] == {
        "1": 0, "2": 5200, "3": 8000, "4": 0}
    assert (record["winner"], record["discarder"], record["winners"]) == (2, 4, [2, 3])
    payments = public_view(state)["hand"]["result"]["payments"]
    assert sorted((p["from"], p["to"], p["amount"]) for p in payments) == [
        (0, 3, 1000), (4, 2, 5200), (4, 3, 8000)]  # 0: the stick from the table
    assert state.rt.sticks == 0
    state = _taken(log.move("9d", "wall", "dora"))
    assert replay_summary(state)["hands"][0]["net"] == expected


def test_a_deposit_left_on_the_table_goes_to_the_winner() -> None:
    """An exhaustive draw leaves East's stick on the table (honba 1); East (the dealer) wins
    the next hand on South's 1d: 5,800 + 300 honba, and the stick of the first hand as well
    as its own of this one."""
    west = "1b2b3b 4b5b6b 7b8b9b 5d6d gdgd"
    north = "5d 6b 7c 8c 9b9b nwnw 3d 8d 2c 6c 9c"
    log = _burn(_log(west=west, north=north).declare(1, "ready").discard(1, "nw"), 2,
                "1d 4d 7d 3d")
    again = _riichi_then_ron(_log())  # the second hand: test_riichi_rules' riichi ron
    log.new_hand()
    log.events.extend(again.events[1:])
    state = _taken(log)
    record = replay_summary(state)["hands"][1]
    assert (record["honba"], record["riichi_sticks"]) == (1, 1)
    # 5,800 + 300 from South; East's sticks: the one left (1,000) and its own back
    assert record["net"] == {"1": 7100, "2": -6100, "3": 0, "4": 0}
    score = state.hand.result.details["1"]["score"]
    assert score["honba"] == 1
    assert state.rt.sticks == 0 and state.rt.honba == 2  # the dealer won: renchan


def test_an_abortive_draw_scores_nothing_and_names_the_declarer() -> None:
    log = abortive._log(abortive.ON).discard(1, "nw")
    log.draw(2, "3b")
    state = _taken(log.declare(2, "nine_terminals"))
    record = replay_summary(state)["hands"][0]
    assert record["scores"] == {"1": 0, "2": 0, "3": 0, "4": 0}
    details = state.hand.result.details
    assert details["2"] == {"wind": "south", "declared": "nine_terminals"}
    assert details["1"] == {"wind": "east"}


def test_the_exhaustive_draw_records_each_seat_tenpai_or_not() -> None:
    west = "1b2b3b 4b5b6b 7b8b9b 5d6d gdgd"
    north = "5d 6b 7c 8c 9b9b nwnw 3d 8d 2c 6c 9c"
    log = _burn(_log(west=west, north=north).declare(1, "ready").discard(1, "nw"), 2,
                "1d 4d 7d 3d")
    state = _taken(log)
    details = state.hand.result.details
    assert {p: details[p] for p in "1234"} == {
        "1": {"wind": "east", "tenpai": True}, "2": {"wind": "south", "tenpai": False},
        "3": {"wind": "west", "tenpai": True}, "4": {"wind": "north", "tenpai": False}}
    assert replay_summary(state)["hands"][0]["scores"] == {"1": 0, "2": 0, "3": 0, "4": 0}


def test_a_won_hand_is_over_with_nothing_pending() -> None:
    """Two rons with the table's timers on: before the discard is taken the claims, the
    award and the deadlines are there; once the hand is over, none of them is left."""
    events = [Log("riichi", {"bonus_tiles": False}, table={"timers": True}).events[0],
              *several_rons().events[1:]]
    state = new_game()
    for i, event in enumerate(events[:-1]):
        state = apply(state, event, at=100.0 + i).state
    hand = state.hand
    assert hand.claimants == ((2, "mahjong"), (3, "mahjong")) and hand.awarded == 2
    assert hand.step is not None and hand.claim_deadline is not None
    outcome = apply(state, events[-1], at=100.0 + len(events))
    assert outcome.accepted, outcome.violation
    hand = outcome.state.hand
    assert hand.phase == "over" and hand.result.result == "mahjong"
    pending = (hand.step, hand.claim, hand.claimants, hand.awarded, hand.taken, hand.robbable,
               hand.robbers, hand.rob_taken, hand.claim_deadline, hand.turn_deadline)
    assert pending == (None, None, (), None, None, None, (), None, None, None)


def test_nagashi_mangan_takes_no_honba_and_no_deposit() -> None:
    """A first hand leaves honba 1 and South's stick on the table (East and South tenpai,
    East stays); then North discards only terminals and honours (option nagashi_mangan): a
    non-dealer's mangan tsumo without honba, 4,000 from East and 2,000 from each other, the
    stick staying on the table; East is tenpai again and stays, honba 2."""
    log = Log("riichi", {"bonus_tiles": False, "nagashi_mangan": True})
    _hand(log, 1, tenpai=(1, 2), riichi=2)
    log.new_hand()
    terminals = ["ew", "sw", "ww", "nw", "gd", "rd", "wd", "1d", "9d", "1b", "9b", "1c", "9c"]
    log.deal({1: "1c2c3c 4c5c6c 2b3b4b 2d3d 5b5b nw", 2: "1d 9d9d 1b1b 7b8b ewew swsw wwww",
              3: "6d6d 7d7d 8d8d 3c3c gdgd rdrd wd", 4: "1d9d 1b9b 1c9c ewswwwnw wdgdrd"})
    log.move("9b", "wall", "dora")
    log.discard(1, "nw")
    tile = log.terminals_to_the_end(2, 69, terminals[:4] + terminals[4:] * 3, avoid=terminals)
    state = _taken(log.river(tile))
    record = replay_summary(state)["hands"][1]
    assert (record["result"], record["honba"], record["riichi_sticks"]) == (
        "nagashi_mangan", 1, 1)
    assert record["net"] == {"1": -4000, "2": -2000, "3": -2000, "4": 8000}
    assert (state.dealer, state.rt.honba, state.rt.sticks) == (1, 2, 1)


def test_nagashi_mangan_of_south() -> None:
    """South discards only terminals and honours, none called (option nagashi_mangan), in the
    session's first hand: a non-dealer's mangan tsumo, 4,000 from East and 2,000 from West and
    North, no tenpai payments; otherwise an exhaustive draw: East, tenpai, stays, honba 1
    (RULES.md 11). East may still declare noten before the table is cleared: the deal passes."""
    log = Log("riichi", {"bonus_tiles": False, "nagashi_mangan": True})
    terminals = ["ew", "sw", "ww", "nw", "gd", "rd", "wd", "1d", "9d", "1b", "9b", "1c", "9c"]
    log.deal({1: "1c2c3c 4c5c6c 2b3b4b 2d3d 5b5b nw", 2: "1d9d 1b9b 1c9c ewswwwnw wdgdrd",
              3: "6d6d 7d7d 8d8d 3c3c gdgd rdrd wd", 4: "1d 9d9d 1b1b 7b8b ewew swsw wwww"})
    log.move("9b", "wall", "dora")
    log.discard(1, "nw")
    tile = log.terminals_to_the_end(2, 69, terminals[:4] + terminals[4:] * 3, avoid=terminals,
                                    river=2)
    state = _taken(log.river(tile))
    record = replay_summary(state)["hands"][0]
    assert record["result"] == "nagashi_mangan"
    assert record["net"] == {"1": -4000, "2": 8000, "3": -2000, "4": -2000}
    assert (state.dealer, state.rt.honba) == (1, 1)
    state = _taken(log.declare(1, "noten"))
    assert replay_summary(state)["hands"][0]["net"] == record["net"]
    assert (state.dealer, state.rt.honba) == (2, 1)


def test_a_riichi_seat_that_deals_in_later_still_pays_its_stick() -> None:
    """East's riichi stood with its first discard; a go-around later it must discard the wd it
    draws, and West wins on it (chiitoitsu, 2 han 25 fu: 25 x 16 x 4 = 1,600). Only a riichi
    discard won on voids the riichi: East's stick goes to West with the win."""
    log = _log().declare(1, "ready").discard(1, "nw")
    for seat, tile in ((2, "1c"), (3, "2c"), (4, "3c")):
        log.draw(seat, tile)
        log.discard(seat, tile)
    log.draw(1, "wd")
    state = _taken(log.discard(1, "wd").declare(3, "mahjong").move("wd", "discard", "rack:3"))
    record = replay_summary(state)["hands"][0]
    assert record["riichi"] == [1]
    assert record["net"] == {"1": -2600, "2": 0, "3": 2600, "4": 0}


def test_no_pao_when_the_fourth_wind_set_was_not_claimed() -> None:
    """South's fourth wind set is a concealed kong of the nw it drew: nobody's discard gave
    it, so the discarder of the winning 1c pays the whole 32,000."""
    log = _log(east="ew ww 1c2c3c 4c5c6c 7c8c9c 6b6b 2b", south=SOUTH_WINDS,
               west="3d 1b2b3b 4b5b6b 7b8b9b 3d3d 7d",
               north="sw 1c 6d6d 7d7d 8d8d 3c3c 4c4c 9c")
    _three_wind_sets_to_south(log)
    for seat in (3, 4, 1):
        log.draw_discard(seat, log.spare(avoid=AVOID))
    log.draw(2, "nw")
    for _ in range(4):
        log.move("nw", "rack:2", "melds:2")
    log.move("5b", "wall", "dora")
    log.draw(2, "rd")
    log.discard(2, "rd")
    log.draw_discard(3, log.spare(avoid=AVOID))
    state = _taken(_north_discards_1c(log))
    assert replay_summary(state)["hands"][0]["net"] == {"1": 0, "2": 32_000, "3": 0,
                                                       "4": -32_000}
    assert state.hand.result.details["2"]["pao"] is None
