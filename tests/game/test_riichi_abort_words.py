"""Abortive draws as the table says them and when they are due (issue 29: game-end-riichi's
survivors in riichi_abort.py), option ``abortive_draws: true`` (RULES.md 11; docs/game.md
"Abortive draws"): nine terminals only on the seat's own first turn with 14 tiles (the dealer
during the deal too), never with a discard taken into the rack; four kongs abort only when
several seats made them (one seat's four may still win suukantsu), and fewer than four never;
the announcements and refusals word for word."""

from __future__ import annotations

from typing import Any

from controller.game import public_view
from tests.game import test_riichi_abortive as ab
from tests.game.logbuilder import Log
from tests.game.test_riichi_end_words import _refusal
from tests.game.test_riichi_end_words import _taken as _said
from tests.game.test_riichi_rules import _last

AGAIN = "; the dealer repeats, honba +1, the deposits stay"
NOT_NOW = ("South may declare nine terminals only on the own first draw, before any call, "
           "holding nine different terminals and honours: play on")


def test_nine_terminals_words() -> None:
    log = ab._log(ab.ON).discard(1, "nw")
    log.draw(2, "3b")
    _, said = _said(ab.Log_with(log, {"declare": {"seat": 2, "call": "nine_terminals"}}))
    assert said == ("Abortive draw: nine terminals (South)" + AGAIN,)
    off = ab._log(None).discard(1, "nw")
    off.draw(2, "3b")
    assert _refusal(off.declare(2, "nine_terminals")) == (
        "abortive_draw", 2, "nine terminals is played only with the option abortive_draws: true")
    seven = ab._log(ab.ON, south=ab.SEVEN).discard(1, "nw")
    seven.draw(2, "ww")
    assert _refusal(seven.declare(2, "nine_terminals")) == ("abortive_draw", 2, NOT_NOW)


def test_nine_terminals_by_the_dealer_during_the_deal() -> None:
    log = ab._log(ab.ON, east="1c 9c 1d 9d 1b ew sw ww gd 4d5d6d7d nw",
                  south="1d2d3d 4d5d6d 7d8d9d 1b2b3b nw")
    state, said = _said(log.declare(1, "nine_terminals"))
    assert said == ("Abortive draw: nine terminals (East)" + AGAIN,)
    assert state.hands[0].riichi["abortive"] == "nine_terminals" and state.dealer == 1


def test_no_nine_terminals_with_a_discard_taken_into_the_rack() -> None:
    """South takes East's first discard into its rack: 14 tiles, no discard of its own, no
    call made, nine kinds, but this is not its own draw."""
    log = ab._log(ab.ON, south="1c 9c 1d 9d 1b ew sw ww gd 4d5d6d nw").discard(1, "nw")
    state, _ = _said(log.move("nw", "discard", "rack:2"))
    assert state.hand.seat(2).size() == 14
    assert _refusal(log.declare(2, "nine_terminals")) == ("abortive_draw", 2, NOT_NOW)


def test_four_winds_words() -> None:
    state, said = _said(ab._four_winds(ab.ON))
    assert said == ("Abortive draw due (four winds) unless the discard is won on",)
    _, said = _said(ab._four_winds(ab.ON).river("ew"))
    assert said == ("Abortive draw: four winds" + AGAIN,)
    claim = {"declare": {"seat": 1, "call": "claim"}}
    assert _refusal(ab.Log_with(ab._four_winds(ab.ON), claim)) == (
        "abortive_draw", 1,
        "the hand ends in an abortive draw (four winds): East may take the discard only to win")


def _kongs_log(east: str, south: str, **hands: str) -> Log:
    return ab._log(ab.ON, east=east, south=south, **hands)


def _due(log: Log) -> Any:
    state, said = _said(log)
    assert state.hand.phase == "play" and said == ()
    return public_view(state)["riichi"].get("abortive_due")


def test_two_kongs_by_two_seats_are_no_abortive_draw() -> None:
    east = "1c1c1c1c 2c2c2c 3b4b5b 7d8d nw"
    south = "3c3c3c3c 4c4c4c 1d2d3d 6b7b 9d"
    log = _kongs_log(east, south, west="6d6d 7d7d 8d8d 5c6c 9c9c rdrd ew",
                     north="5d5d 6b6b 7c7c 8c8c 9b 1b nwnw ww")
    for _ in range(4):
        log.move("1c", "rack:1", "melds:1")
    log.move("wd", "wall", "dora")
    log.draw(1, "ww")
    log.discard(1, "ww")
    log.draw(2, "5c")
    for _ in range(4):
        log.move("3c", "rack:2", "melds:2")
    log.move("rd", "wall", "dora")
    log.draw(2, "ew")
    assert _due(log.discard(2, "ew")) is None


def test_four_kongs_by_one_seat_are_no_abortive_draw() -> None:
    """East makes four concealed kongs (each replacement the next 4c, the last a 5b) and
    discards: suukantsu is still possible, the hand plays on."""
    log = _kongs_log("1c1c1c1c 2c2c2c2c 3c3c3c3c 4c 5c", "1d2d3d 4d5d6d 7d8d9d 1b2b3b nw",
                     west="6d6d 7d7d 8d8d 5b6b 9d9d rdrd 7b",
                     north="5d5d 6b6b 7b7b 8c8c 9b 1b nwnw ww")
    for tile, indicator in (("1c", "wd"), ("2c", "gd"), ("3c", "rd"), ("4c", "ew")):
        for _ in range(4):
            log.move(tile, "rack:1", "melds:1")
        log.move(indicator, "wall", "dora")
        log.draw(1, "4c" if tile != "4c" else "5b")
    assert _due(log.discard(1, "5b")) is None


def test_no_nine_terminals_by_the_dealer_before_its_fourteenth_tile() -> None:
    log = ab._log(ab.ON, east="1c 9c 1d 9d 1b ew sw ww gd 4d5d6d7d nw",
                  south="1d2d3d 4d5d6d 7d8d9d 1b2b3b nw")
    del log.events[-2:]  # the dora indicator and East's 14th tile (the deal's last)
    state, _ = _last(log)
    assert state.hand.phase == "deal" and state.hand.seat(1).size() == 13
    assert _refusal(log.declare(1, "nine_terminals")) == (
        "abortive_draw", 1, NOT_NOW.replace("South", "East"))
