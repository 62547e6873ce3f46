"""Abortive draws at the table, option ``abortive_draws: true`` (RULES.md 11; the reading of what
follows one in docs/game.md "Abortive draws": no payments, the dealer repeats, honba +1, the
riichi deposits stay on the table). The hands are written here; each expectation comes from the
rule book's conditions (nine different terminals and honours at a seat's first draw before any
call; the same wind as each seat's first discard; four riichi; four kongs by several seats;
three rons on one discard), never from the engine."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main
from controller.game import public_view, replay, replay_summary, seat_view
from controller.game.state import GameState
from tests.game.logbuilder import Log

ON = {"abortive_draws": True}
#: East (the dealer, 14 tiles) discards nw first
EAST = "1c2c3c 4c5c6c 2b3b4b 2d3d 5b5b nw"
#: nine different terminals and honours: 1c 9c 1d 9d 1b ew sw ww gd
NINE = "1c 9c 1d 9d 1b ew sw ww gd 4d5d6d7d"
#: seven of them: 1c 9c 1d 9d 1b ew sw (an eighth, ww, drawn)
SEVEN = "1c 9c 1d 9d 1b ew sw 4d5d6d7d 3c3c"
WEST = "6d6d 7d7d 8d8d 3c 4c 6c 8c rdrd 2c"
NORTH = "5d5d 6b6b 7c7c 8c8c 9b9b nwnw 3d"


def _log(options: dict[str, Any] | None, east: str = EAST, south: str = NINE,
         west: str = WEST, north: str = NORTH) -> Log:
    log = Log("riichi", {"bonus_tiles": False, **(options or {})})
    log.deal({1: east, 2: south, 3: west, 4: north})
    log.move("9b", "wall", "dora")  # the first indicator
    return log


def _last(log: Log) -> tuple[GameState, Any]:
    state, outcomes = replay(log.events)
    return state, outcomes[-1]


def _aborted(state: GameState, kind: str, sticks: int = 0) -> dict[str, Any]:
    """What every abortive draw shares (the reading in docs/game.md): a washout naming the
    abortive draw, no payment but the deposits of riichi that stood, the dealer (seat 1)
    dealing again with honba 1, the deposits left on the table, no tenpai read."""
    record = replay_summary(state)["hands"][0]
    assert record["result"] == "washout" and record["abortive"] == kind
    assert record["winners"] == [] and record["tenpai"] == []
    assert sum(record["net"].values()) == -1000 * sticks
    assert state.dealer == 1 and state.prevailing_wind == "east"
    assert state.rt.honba == 1 and state.rt.sticks == sticks
    board = public_view(state)["riichi"]
    assert board["abortive"] == kind and "tenpai" not in board
    return record


def test_nine_terminals_declared_at_the_first_draw() -> None:
    log = _log(ON).discard(1, "nw")
    log.draw(2, "3b")
    state, _ = _last(log)
    assert seat_view(state, 2)["riichi"].get("nine_terminals") is True
    assert "nine_terminals" not in seat_view(state, 1)["riichi"]  # not its turn
    state, out = _last(log.declare(2, "nine_terminals"))
    assert out.accepted, out.violation
    record = _aborted(state, "nine_terminals")
    assert record["net"] == {"1": 0, "2": 0, "3": 0, "4": 0}
    # no tile of the declarer's hand is published (the table reads it; nobody shows it)
    assert "hand" not in str(state.hand.result.details)
    assert "1c" not in str(public_view(state)["riichi"])
    # the next hand: the same dealer deals again
    state, out = _last(log.new_hand().move("1c", "wall", "rack:1"))
    assert out.accepted and state.hand.number == 2 and state.hand.dealer == 1


def test_the_ready_button_declares_nine_terminals_when_no_riichi_is_possible() -> None:
    """A table has three buttons: READY at that moment, with no riichi possible, is nine
    terminals (docs/game.md)."""
    log = _log(ON).discard(1, "nw")
    log.draw(2, "3b")
    state, out = _last(log.declare(2, "ready"))
    assert out.accepted, out.violation
    _aborted(state, "nine_terminals")


def test_nine_terminals_refused_otherwise() -> None:
    # eight kinds only (7 dealt, ww drawn)
    log = _log(ON, south=SEVEN).discard(1, "nw")
    log.draw(2, "ww")
    state, out = _last(log.declare(2, "nine_terminals"))
    assert not out.accepted and out.violation.rule == "abortive_draw"
    assert state.hand.phase == "play"
    # the option off (the EMA's default): no abortive draws
    log = _log(None).discard(1, "nw")
    log.draw(2, "3b")
    state, out = _last(log.declare(2, "nine_terminals"))
    assert not out.accepted and "abortive_draws" in out.violation.message
    assert "nine_terminals" not in seat_view(state, 2)["riichi"]
    # not at the seat's first draw: South discarded once already
    log = _log(ON).discard(1, "nw")
    log.draw(2, "3b")
    log.discard(2, "3b")
    for seat in (3, 4, 1):
        log.draw_discard(seat, log.spare(avoid=["1c", "9c", "1d", "9d", "1b"]))
    log.draw(2, "4b")
    _, out = _last(log.declare(2, "nine_terminals"))
    assert not out.accepted and out.violation.rule == "abortive_draw"


def test_nine_terminals_refused_after_a_call() -> None:
    """Any call of the hand before the seat's first draw ends its chance (RULES.md 11, the
    first go-around uninterrupted)."""
    north = "5d5d 6b6b 7c7c 8c8c 9b9b wd 3d"
    west = "6d6d 7d7d 8d8d 3c 4c 6c nwnw rd 2c"  # pungs East's nw
    log = _log(ON, west=west, north=north).discard(1, "nw")
    log.claim(3, "nw", "nwnw")
    log.discard(3, "rd")
    log.draw(4, "3b")
    log.discard(4, "3b")
    log.draw(1, "4b")
    log.discard(1, "4b")
    log.draw(2, "3b")
    state, out = _last(log.declare(2, "nine_terminals"))
    assert not out.accepted and out.violation.rule == "abortive_draw"
    assert state.hand.phase == "play"


def _four_winds(options: dict[str, Any] | None) -> Log:
    """Each seat holds one ew and makes it its first discard, no call between."""
    log = _log(options, east="1c2c3c 4c5c6c 2b3b4b 2d3d 5b5b ew",
               south="1d 9d9d 1b1b 7b8b ew 4c swsw wwww",
               west="6d6d 7d7d 8d8d 3c3c gdgd rdrd ew",
               north="5d5d 6b6b 7c7c 8c8c 9b9b nwnw ew")
    log.discard(1, "ew")
    for seat, tile in ((2, "1c"), (3, "2c"), (4, "3c")):
        log.draw(seat, tile)
        log.discard(seat, "ew")
    return log


def test_four_winds() -> None:
    log = _four_winds(ON)
    state, out = _last(log)
    assert out.accepted and state.hand.phase == "play"
    assert public_view(state)["riichi"]["abortive_due"] == "four_winds_discarded"
    state, out = _last(log.river("ew"))  # not won on: the hand ends
    assert out.accepted, out.violation
    record = _aborted(state, "four_winds_discarded")
    assert record["net"] == {"1": 0, "2": 0, "3": 0, "4": 0}
    # without the option the hand plays on
    state, _ = _last(_four_winds(None).river("ew"))
    assert state.hand.phase == "play" and "abortive_due" not in public_view(state)["riichi"]


def test_the_next_draw_ends_a_due_abortive_draw_too() -> None:
    """The discard need not be pushed to the river: the next move from the wall closes the
    hand first (as for the exhaustive draw), and starts the next deal."""
    log = _four_winds(ON)
    log.move("4c", "wall", "rack:1")
    state, out = _last(log)
    assert out.accepted and state.hands[0].result == "washout"
    assert state.hands[0].riichi["abortive"] == "four_winds_discarded"
    assert state.hand.number == 2 and state.hand.dealer == 1


def test_a_discard_that_makes_an_abortive_draw_may_be_taken_only_to_win() -> None:
    """Four winds used all four ew: East's claim on the fourth is refused, naming the rule
    (the ron that may take such a discard: test_a_ron_on_the_fourth_riichi_discard_wins)."""
    _, out = _last(Log_with(_four_winds(ON), {"declare": {"seat": 1, "call": "claim"}}))
    assert not out.accepted and out.violation.rule == "abortive_draw"
    assert "only to win" in out.violation.message


def Log_with(log: Log, event: dict[str, Any]) -> Log:  # noqa: N802 - reads as the builder
    new = Log("riichi", {"bonus_tiles": False})
    new.events = [*log.events, event]
    new.out = log.out.copy()
    return new


#: each seat tenpai for riichi at its first discard (waits written beside)
R_EAST = "1c2c3c 4c5c6c 7c8c9c 1d2d3d 5d nw"  # riichi discarding nw: waits 5d
R_SOUTH = "1b2b3b 4b5b6b 7b8b9b 6d7d 4c4c"  # waits 5d/8d
R_WEST = "3c4c5c 6d6d6d 7d8d9d 3b3b 5c6c"  # waits 4c/7c
R_NORTH = "9c9c9c ewew 1d1d1d 2b3b 6b6b6b"  # waits 1b/4b


def _four_riichi(north_draw: str) -> Log:
    log = _log(ON, east=R_EAST, south=R_SOUTH, west=R_WEST, north=R_NORTH)
    log.declare(1, "ready").discard(1, "nw")
    for seat, tile in ((2, "sw"), (3, "ww"), (4, north_draw)):
        log.draw(seat, tile)
        log.declare(seat, "ready").discard(seat, tile)
    return log


def test_four_riichi() -> None:
    log = _four_riichi("nw")
    state, out = _last(log)
    assert out.accepted and public_view(state)["riichi"]["abortive_due"] == "four_riichi"
    state, out = _last(log.river("nw"))
    assert out.accepted, out.violation
    record = _aborted(state, "four_riichi", sticks=4)
    # every riichi stood (its discard not won on): 1,000 each on the table, and they stay
    assert record["net"] == {"1": -1000, "2": -1000, "3": -1000, "4": -1000}
    assert record["riichi"] == [1, 2, 3, 4]


def test_a_ron_on_the_fourth_riichi_discard_wins_instead() -> None:
    """North's riichi discard 5d is East's wait: the ron wins, North's riichi is void (RULES.md
    11: a riichi discard won on pays nothing), no abortive draw."""
    log = _four_riichi("5d").declare(1, "mahjong").move("5d", "discard", "rack:1")
    state, out = _last(log)
    assert out.accepted, out.violation
    record = replay_summary(state)["hands"][0]
    assert record["result"] == "mahjong" and record["winners"] == [1]
    assert record.get("abortive") is None and record["riichi"] == [1, 2, 3]


#: the concealed kongs East and South make (tile, the indicator each lays, the replacement)
KONGS = {1: (("1c", "wd", "ww"), ("2c", "gd", "sw")), 2: (("3c", "rd", "ew"), ("4c", "ew", "2d"))}


def four_kongs_by_east_and_south(log: Log, look: Callable[[Log], Any] = id) -> list[Any]:
    """East makes two concealed kongs (each lays an indicator, then its replacement is
    drawn) and discards its ww; South draws a 4c, does the same and discards its ew (the
    hands of ``test_four_kongs_by_two_seats``). ``look`` at the log after each indicator."""
    seen = []
    for seat, discard in ((1, "ww"), (2, "ew")):
        if seat == 2:
            log.draw(2, "4c")
        for tile, indicator, replacement in KONGS[seat]:
            for _ in range(4):
                log.move(tile, f"rack:{seat}", f"melds:{seat}")
            seen.append(look(log.move(indicator, "wall", "dora")))
            log.draw(seat, replacement)
        log.discard(seat, discard)
    return seen


def test_four_kongs_by_two_seats() -> None:
    """East (the dealer) and South each make two concealed kongs; the discard after the fourth
    kong is not won on: an abortive draw. Each kong lays one more indicator, then its
    replacement is drawn (RULES.md 11)."""
    east = "1c1c1c1c 2c2c2c2c 3b4b5b 7d8d nw"
    south = "3c3c3c3c 4c4c4c 1d2d3d 6b7b 9d"
    log = _log(ON, east=east, south=south, west="6d6d 7d7d 8d8d 5c6c 9c9c rdrd ew",
               north="5d5d 6b6b 7c7c 8c8c 9b 1b nwnw ww")
    four_kongs_by_east_and_south(log)
    state, out = _last(log)
    assert out.accepted, out.violation
    assert public_view(state)["riichi"]["abortive_due"] == "four_kongs_several_seats"
    state, out = _last(log.river("ew"))
    assert out.accepted, out.violation
    _aborted(state, "four_kongs_several_seats")


def _three_rons(options: dict[str, Any]) -> Log:
    """East, South and West each wait on nw alone (each with a yaku: ittsu; East also a
    dragon pung), not furiten; North discards nw and the three declare Mahjong on it."""
    east = "4b5b6b 7b8b9b 1b2b3b gdgdgd nw wd"
    south, west = "1d2d3d 4d5d6d 7d8d9d 1b2b3b nw", "1c2c3c 4c5c6c 7c8c9c 2b3b4b nw"
    log = _log(options, east=east, south=south, west=west,
               north="5d5d 6b6b 7c 8c 9b9b nw 3d 3b 4b 1d")
    log.discard(1, "wd")
    for seat, tile in ((2, "1c"), (3, "ew"), (4, "sw")):
        log.draw(seat, tile)
        if seat < 4:
            log.discard(seat, tile)
    log.discard(4, "nw")
    for p in (1, 2, 3):
        log.declare(p, "mahjong")
    return log.move("nw", "discard", "rack:1")


def test_three_rons() -> None:
    state, out = _last(_three_rons(ON))
    assert out.accepted, out.violation
    record = _aborted(state, "three_rons")
    assert record["net"] == {"1": 0, "2": 0, "3": 0, "4": 0}
    # the option off: all three win (multiple_ron: all); head_bump: only the first
    state, out = _last(_three_rons({}))
    assert out.accepted and replay_summary(state)["hands"][0]["winners"] == [1, 2, 3]
    state, out = _last(_three_rons({**ON, "multiple_ron": "head_bump"}))
    assert out.accepted and replay_summary(state)["hands"][0]["winners"] == [1]


def test_replay_reports_the_abortive_draw(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                          ) -> None:
    """FORMATS.md replay: the hand record is a washout with ``abortive`` naming which."""
    log = _log(ON).discard(1, "nw")
    log.draw(2, "3b")
    path = tmp_path / "nine.jsonl"
    path.write_text(log.declare(2, "nine_terminals").jsonl(), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    hand = out["hands"][0]
    assert hand["result"] == "washout" and hand["abortive"] == "nine_terminals"
    assert hand["net"] == {"1": 0, "2": 0, "3": 0, "4": 0} and out["violations"] == []
