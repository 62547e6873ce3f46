"""The riichi hanchan from hand to hand and at its end (RULES.md section 11 "Dealership and
counters", "The game", "Chombo"): who deals next, the honba and the riichi deposits, the east
and south rounds, and the final result with the uma. Every expectation is worked out here from
the rule book: a tenpai seat alone at an exhaustive draw takes 1,000 from each other seat; the
honba goes up by one at every exhaustive draw and renchan; the hanchan ends when the deal
passes on from south's fourth dealer; the deposits left go to first place; the result is
(points - 30,000) / 1,000 plus the uma +15 / +5 / -5 / -15 (tied places share theirs), less 20
for each chombo."""

from __future__ import annotations

from typing import Any

import pytest

from controller.game import replay, replay_summary
from controller.game.riichi_end import hanchan_result
from tests.game.logbuilder import Log

#: waits on nothing (three seats hold it; north the other ranks)
NOTEN = "1c4c7c 2d5d8d 3b6b9b ew sw ww nw"
NOTEN_NORTH = "2c5c8c 3d6d9d 1b4b7b ew sw ww nw"
#: waits on 5d alone
TENPAI = "1c2c3c 4c5c6c 7c8c9c 1d2d3d 5d"


def _hand(log: Log, dealer: int, tenpai: tuple[int, ...] = (), riichi: int | None = None,
          chombo: int | None = None) -> Log:
    """One hand: the deal (the dealer's 14th tile a rd, discarded at once), the dora indicator,
    ``riichi`` drawing a wd and declaring riichi with it, then the operator's washout (the
    table reads the racks: the exhaustive draw's payments) or ``chombo`` given to a seat."""
    log.new_hand()
    deal = {1: NOTEN, 2: NOTEN, 3: NOTEN, 4: NOTEN_NORTH}
    for pos in tenpai:
        deal[pos] = TENPAI
    deal[dealer] += " rd"
    log.deal(deal)
    log.move("gd", "wall", "dora")
    log.discard(dealer, "rd")
    if riichi is not None:
        log.draw(riichi, "wd")
        log.declare(riichi, "ready").discard(riichi, "wd")
    if chombo is not None:
        return log.raw({"penalty": {"kind": "chombo", "seat": chombo}})
    return log.raw({"correct": {"end_hand": "washout"}})


def _nets(*values: int) -> dict[str, int]:
    return {str(p): v for p, v in zip((1, 2, 3, 4), values, strict=True)}


def test_a_hanchan_hand_by_hand_to_its_final() -> None:
    log = Log("riichi", {"bonus_tiles": False})
    _hand(log, 1, tenpai=(3,))  # east deals, noten: the deal passes
    _hand(log, 2, tenpai=(3,), riichi=3)  # west in riichi, tenpai alone
    _hand(log, 3, chombo=1)  # voided: the same dealer, the counters unchanged
    _hand(log, 3, tenpai=(3,))  # the dealer tenpai: renchan
    for dealer in (3, 4, 1, 2, 3, 4):  # nobody tenpai: the deal passes each time
        _hand(log, dealer)
    state, outcomes = replay(log.events)
    assert all(o.accepted for o in outcomes), [o.violation for o in outcomes if not o.accepted]
    hands = replay_summary(state)["hands"]
    # (dealer, round, honba, deposits on the table before the hand, result, nets)
    expected: list[tuple[int, str, int, int, str, dict[str, int]]] = [
        (1, "east", 0, 0, "washout", _nets(-1000, -1000, 3000, -1000)),
        # west's stick goes onto the table: 3,000 - 1,000
        (2, "east", 1, 0, "washout", _nets(-1000, -1000, 2000, -1000)),
        (3, "east", 2, 1, "chombo", _nets(0, 0, 0, 0)),
        (3, "east", 2, 1, "washout", _nets(-1000, -1000, 3000, -1000)),
        (3, "east", 3, 1, "washout", _nets(0, 0, 0, 0)),
        (4, "east", 4, 1, "washout", _nets(0, 0, 0, 0)),
        (1, "south", 5, 1, "washout", _nets(0, 0, 0, 0)),
        (2, "south", 6, 1, "washout", _nets(0, 0, 0, 0)),
        (3, "south", 7, 1, "washout", _nets(0, 0, 0, 0)),
        (4, "south", 8, 1, "washout", _nets(0, 0, 0, 0)),
    ]
    got = [(h["dealer"], h["prevailing_wind"], h["honba"], h["riichi_sticks"], h["result"],
            h["net"]) for h in hands]
    assert got == expected
    running = [30_000] * 4
    for h, want in zip(hands, expected, strict=True):
        running = [r + want[5][str(p)] for p, r in zip((1, 2, 3, 4), running, strict=True)]
        assert h["points"] == _nets(*running)
    assert [h["tenpai"] for h in hands[:2]] == [[3], [3]] and hands[1]["riichi"] == [3]
    assert state.game_over and state.rt.honba == 9 and state.rt.sticks == 1
    # the deal passed on from south's fourth dealer: the round would be west's, which is not
    # played (the board shows the round moved on and the game over)
    assert state.prevailing_wind == "west" and state.passes == 0
    assert state.rt.chombo == (1, 0, 0, 0)
    # 27,000 / 27,000 / 38,000 / 27,000 and the deposit left to first place (west): the three
    # tied share the places 2-4: (5 - 5 - 15) / 3 = -5 each; east's chombo -20
    assert state.rt.final == {
        "points": _nets(27_000, 27_000, 39_000, 27_000),
        "uma": {"1": -5.0, "2": -5.0, "3": 15.0, "4": -5.0},
        "penalties": _nets(-20, 0, 0, 0), "deposits": 1000,
        "result": {"1": -28.0, "2": -8.0, "3": 24.0, "4": -8.0}}
    assert replay_summary(state)["final"] == state.rt.final


def test_the_hanchan_is_not_over_before_south_fourth_dealer_passes() -> None:
    log = Log("riichi", {"bonus_tiles": False})
    for dealer in (1, 2, 3, 4, 1, 2, 3):
        _hand(log, dealer)
    state, _ = replay(log.events)
    assert not state.game_over and state.rt.final is None
    assert (state.dealer, state.prevailing_wind, state.passes) == (4, "south", 3)
    assert [h.prevailing_wind for h in state.hands] == ["east"] * 4 + ["south"] * 3


@pytest.mark.parametrize(("points", "sticks", "chombo", "final"), [
    # four places, 2 deposits to first: 35,000 + 2,000
    ([35_000, 30_000, 25_000, 28_000], 2, (0, 0, 0, 0),
     {"points": [37_000, 30_000, 25_000, 28_000], "uma": [15.0, 5.0, -15.0, -5.0],
      "result": [22.0, 5.0, -20.0, -7.0], "deposits": 2000}),
    # first place tied: the deposit shared (500 each), the uma of places 1-2 shared
    ([35_000, 35_000, 25_000, 24_000], 1, (0, 0, 0, 0),
     {"points": [35_500, 35_500, 25_000, 24_000], "uma": [10.0, 10.0, -5.0, -15.0],
      "result": [15.5, 15.5, -10.0, -21.0], "deposits": 1000}),
    # second place tied: (5 - 5) / 2
    ([24_000, 28_000, 40_000, 28_000], 0, (0, 0, 0, 0),
     {"points": [24_000, 28_000, 40_000, 28_000], "uma": [-15.0, 0.0, 15.0, 0.0],
      "result": [-21.0, -2.0, 25.0, -2.0], "deposits": 0}),
    # last place tied: (-5 - 15) / 2; a chombo of the third seat
    ([40_000, 32_000, 24_000, 24_000], 0, (0, 0, 1, 0),
     {"points": [40_000, 32_000, 24_000, 24_000], "uma": [15.0, 5.0, -10.0, -10.0],
      "result": [25.0, 7.0, -36.0, -16.0], "deposits": 0}),
    # everybody level: the uma cancels out; two chombo of one seat
    ([30_000] * 4, 0, (0, 2, 0, 0),
     {"points": [30_000] * 4, "uma": [0.0] * 4, "result": [0.0, -40.0, 0.0, 0.0],
      "deposits": 0}),
    # hundreds: a result to one decimal
    ([31_300, 29_800, 30_100, 28_800], 0, (0, 0, 0, 0),
     {"points": [31_300, 29_800, 30_100, 28_800], "uma": [15.0, -5.0, 5.0, -15.0],
      "result": [16.3, -5.2, 5.1, -16.2], "deposits": 0}),
    # a big first place: (90,000 - 30,000) / 1,000 = 60
    ([90_000, 20_000, 10_000, 0], 0, (0, 0, 0, 0),
     {"points": [90_000, 20_000, 10_000, 0], "uma": [15.0, 5.0, -5.0, -15.0],
      "result": [75.0, -5.0, -25.0, -45.0], "deposits": 0}),
    # three tied first: the deposit shared in whole points (1,000 // 3 = 333 each), the uma
    # of places 1-3 shared: (15 + 5 - 5) / 3 = 5; 5.333 + 5 to one decimal
    ([35_000, 35_000, 35_000, 14_000], 1, (0, 0, 0, 0),
     {"points": [35_333, 35_333, 35_333, 14_000], "uma": [5.0, 5.0, 5.0, -15.0],
      "result": [10.3, 10.3, 10.3, -31.0], "deposits": 1000}),
])
def test_the_final_result(points: list[int], sticks: int, chombo: tuple[int, ...],
                          final: dict[str, Any]) -> None:
    got = hanchan_result(points, sticks, chombo)
    assert all(type(v) is int for v in got["points"].values())  # whole points, never 35333.3
    assert got == {
        "points": _nets(*final["points"]),
        "uma": {str(p): u for p, u in zip((1, 2, 3, 4), final["uma"], strict=True)},
        "penalties": _nets(*(-20 * c for c in chombo)),
        "deposits": final["deposits"],
        "result": {str(p): r for p, r in zip((1, 2, 3, 4), final["result"], strict=True)}}


def test_before_the_end_the_deposits_stay_and_the_uma_is_provisional() -> None:
    """The club's places during a hanchan (``ended=False``): the points as they stand, the
    deposits on the table for nobody yet, the uma of the places as they stand."""
    got = hanchan_result([35_000, 30_000, 25_000, 28_000], 2, (0, 0, 0, 1), ended=False)
    assert got["points"] == _nets(35_000, 30_000, 25_000, 28_000) and got["deposits"] == 0
    assert got["uma"] == {"1": 15.0, "2": 5.0, "3": -15.0, "4": -5.0}
    assert got["result"] == {"1": 20.0, "2": 5.0, "3": -20.0, "4": -27.0}
    assert got["penalties"] == _nets(0, 0, 0, -20)
