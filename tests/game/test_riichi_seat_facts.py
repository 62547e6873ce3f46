"""A seat's riichi facts and the board's in the states the other riichi view tests do not build
(issue 29: game-views-riichi's surviving mutants). Expected values from RULES.md section 11:
furiten after a passed winning tile until the seat's next draw, and for the rest of the hand in
riichi (a wait lying on the pad is not passed yet); kuikae after a chi (the called kind and the
other end of the two own tiles); riichi only with a closed hand, not yet in riichi, at least 4
tiles left in the live wall; a dead hand (a refused Mahjong) has no riichi; a self-drawn win is
always allowed, a win on the dealt tiles included (tenhou); the riichi discard drawn sideways in
the river, which lacks the discards others called."""

from __future__ import annotations

from typing import Any

from controller.game import public_view, replay, replay_summary, seat_view
from tests.game.logbuilder import Log
from tests.game.test_riichi_rules import Log_copy, _log
from tests.game.test_riichi_seat_view import SOUTH_NO_YAKU, WEST_ITTSU

#: the facts of a seat with nothing to say (seat_riichi's defaults), but its newest drawn tile
NOTHING = {"in_riichi": False, "declared": False, "dead": False, "kuikae": [], "furiten": False,
           "ron_on": [], "no_yaku": [], "can_riichi": False, "riichi_discards": [],
           "tsumo": False}


def _all_facts(log: Log, pos: int) -> dict[str, Any]:
    facts: dict[str, Any] = seat_view(replay(log.events)[0], pos)["riichi"]
    return facts


def _facts(log: Log, pos: int) -> dict[str, Any]:
    """The seat's facts but ``drawn`` (the newest tile it drew, kept after its discard)."""
    return {k: v for k, v in _all_facts(log, pos).items() if k != "drawn"}


def _board(log: Log) -> dict[str, Any]:
    board: dict[str, Any] = public_view(replay(log.events)[0])["riichi"]
    return board


def test_the_board_before_the_first_deal() -> None:
    board = _board(Log("riichi", {"bonus_tiles": False}))
    assert board == {"honba": 0, "riichi_sticks": 0,
                     "points": {"1": 30_000, "2": 30_000, "3": 30_000, "4": 30_000},
                     "riichi": [], "double_riichi": [], "dora_indicators": [],
                     "ura_dora_indicators": [], "ura_due": False, "final": None,
                     "chombo": [0, 0, 0, 0]}


def test_a_passed_wait_is_furiten_until_the_seats_next_draw() -> None:
    """East's very first discard is West's 4d: West lets it pass. South's 7d (West's other
    wait) then finds West furiten: no ron, and no "no yaku" either (the refusal is furiten)."""
    log = _log(east="1c2c3c 4c5c6c 2b3b4b 2d3d 5b5b 4d", west=WEST_ITTSU).discard(1, "4d")
    assert _facts(log, 3) == {**NOTHING, "ron_on": ["4d"]}  # on the pad: not passed yet
    log.draw(2, "7d")
    log.discard(2, "7d")
    assert _facts(log, 3) == {**NOTHING, "furiten": True}
    assert _facts(log, 4) == NOTHING  # North waits on nothing
    log.draw(3, "1c")  # West's draw ends it
    log.discard(3, "1c")
    assert _facts(log, 3)["furiten"] is False


def test_in_riichi_a_passed_wait_is_furiten_for_the_rest_of_the_hand() -> None:
    log = _log().declare(1, "ready").discard(1, "nw")  # East waits on 1d/4d
    log.draw(2, "1d")
    standing = {**NOTHING, "in_riichi": True}
    assert _facts(log, 1) == standing  # South holds 14 tiles: no discard on the pad
    log.discard(2, "1d")
    assert _facts(log, 1) == {**standing, "ron_on": ["1d"]}  # on the pad: not passed yet
    for seat, tile in ((3, "1c"), (4, "2c"), (1, "9c")):  # East lets it pass, draws, discards
        log.draw(seat, tile)
        log.discard(seat, tile)
    assert _facts(log, 1) == {**standing, "furiten": True}
    # at East's turn, in riichi: the hand is locked, no riichi to declare again
    log.draw(2, "3c")
    log.discard(2, "3c")
    log.draw(3, "6c")
    log.discard(3, "6c")
    log.draw(4, "7c")
    log.discard(4, "7c")
    log.draw(1, "8c")
    east = _all_facts(log, 1)
    assert east["in_riichi"] is True and east["drawn"] == "8c" and east["tsumo"] is False
    assert east["can_riichi"] is False and east["riichi_discards"] == []


def test_kuikae_is_the_callers_alone() -> None:
    """South chis East's 9b with 7b8b: neither 9b nor 6b next (RULES.md 11). The hand is open:
    no riichi although discarding the sw leaves it waiting on 3c/6c."""
    log = _log(east="1c2c3c 4c5c6c 2b3b4b 2d3d 5b5b 9b", south="9d9d9d 1b1b1b ewew 7b8b 4c5c sw")
    log.discard(1, "9b").claim(2, "9b", "7b8b")
    south = _facts(log, 2)
    assert sorted(south.pop("kuikae")) == ["6b", "9b"]
    assert south == {k: v for k, v in NOTHING.items() if k != "kuikae"}
    for pos in (1, 3, 4):
        assert _facts(log, pos)["kuikae"] == []


def test_riichi_needs_four_tiles_left_in_the_live_wall() -> None:
    """South (waiting on 4d/7d) draws the 65th tile after East's first discard: 69 - 65 = 4
    left, riichi possible; at the 69th (the last tile) not."""
    log = _log(south=WEST_ITTSU).discard(1, "nw")
    seat, drawn = 2, 0
    facts: dict[int, dict[str, Any]] = {}
    while drawn < 69:
        tile = log.spare(avoid=["4d", "7d"])
        log.draw(seat, tile)
        drawn += 1
        if seat == 2 and drawn in (65, 69):
            facts[drawn] = _all_facts(log, 2)
            assert facts[drawn]["drawn"] == tile
        log.discard(seat, tile)
        seat = seat % 4 + 1
    assert facts[65]["can_riichi"] is True and facts[65]["riichi_discards"] != []
    assert facts[69]["can_riichi"] is False and facts[69]["riichi_discards"] == []


def test_a_dead_hand_may_not_declare_riichi() -> None:
    """South's Mahjong without a yaku is refused: its hand is dead. At its next turn discarding
    the drawn tile would leave it waiting, but a dead hand has no riichi (RULES.md 11)."""
    log = _log(south=SOUTH_NO_YAKU).discard(1, "nw")
    log.draw(2, "1d")
    log.discard(2, "1d")
    log.draw(3, "3b")
    log.discard(3, "3b").declare(2, "mahjong")
    for seat, tile in ((4, "1c"), (1, "9c")):
        log.draw(seat, tile)
        log.discard(seat, tile)
    log.draw(2, "2c")
    assert _facts(log, 2) == {**NOTHING, "dead": True}
    assert _all_facts(log, 2)["drawn"] == "2c"
    # the control: the same hand alive may declare riichi with the drawn tile
    alive = _log(south=SOUTH_NO_YAKU).discard(1, "nw")
    alive.draw(2, "2c")
    assert _facts(alive, 2)["can_riichi"] is True


def test_a_self_drawn_win_needs_no_other_yaku() -> None:
    """South's hand has no yaku on a discard (test_riichi_seat_view), but drawing its 3b is a
    fully concealed self-drawn win (menzen tsumo), always allowed."""
    log = _log(south=SOUTH_NO_YAKU).discard(1, "nw")
    log.draw(2, "3b")
    south = _all_facts(log, 2)
    assert south["tsumo"] is True and south["drawn"] == "3b"


def test_the_dealt_tiles_may_be_a_win_for_the_dealer_only() -> None:
    """East is dealt a complete hand with no yaku but the draw itself (tenhou, menzen tsumo):
    its view says tsumo; it may also declare riichi discarding the 1c or the 9b."""
    east = "1c1c1c 4c5c6c 2b3b4b 2d3d4d 9b9b"
    log = _log(east=east, north="5d5d 6b6b 7c7c 8c8c 3d3d nwnw 3c")
    assert _facts(log, 1)["tsumo"] is True
    for pos in (2, 3, 4):  # nobody else is at its turn
        assert _facts(log, pos) == NOTHING


def test_a_claimed_tile_is_no_tsumo() -> None:
    """East pungs North's 3d with a hand that the 3d completes (all simples, a yaku open too)
    and a 3d left in its rack: a claim for a set is no win (the Mahjong would have been a ron
    on it); East, the dealer, has drawn nothing this turn."""
    log = _log(east="2d3d4d 4c5c6c 2b3b4b 3d3d 5b5b nw")
    log.discard(1, "nw")
    for seat, tile in ((2, "1c"), (3, "2c")):
        log.draw(seat, tile)
        log.discard(seat, tile)
    log.draw(4, "8d")
    log.discard(4, "3d").claim(1, "3d", "3d3d")
    east = _all_facts(log, 1)
    assert east["tsumo"] is False and east["drawn"] is None
    assert east["can_riichi"] is False  # an open hand


def test_a_replacement_tile_that_completes_the_hand_is_a_tsumo() -> None:
    """East in riichi draws its fourth 1c, declares the concealed kong, lays the indicator and
    draws the replacement 1d: rinshan kaihou, a tsumo (RULES.md 11)."""
    log = _log(east="1c1c1c 4c5c6c 2b3b4b 2d3d 5b5b nw").declare(1, "ready").discard(1, "nw")
    for seat, tile in ((2, "ew"), (3, "sw"), (4, "ww")):
        log.draw(seat, tile)
        log.discard(seat, tile)
    log.draw(1, "1c")
    for _ in range(4):
        log.move("1c", "rack:1", "melds:1")
    log.move("2c", "wall", "dora").draw(1, "1d")
    east = _all_facts(log, 1)
    assert east["drawn"] == "1d" and east["tsumo"] is True


def test_the_riichi_discard_in_the_river_after_others_discards_and_a_call() -> None:
    """East's riichi discard is its third discard; its second was called (pung), so the river
    holds the first and the riichi discard: sideways is the river's second tile."""
    log = _log().discard(1, "nw")
    for seat, tile in ((2, "1c"), (3, "2c"), (4, "3c")):
        log.draw(seat, tile)
        log.discard(seat, tile)
    log.draw(1, "9b")
    log.discard(1, "9b").claim(4, "9b", "9b9b")
    log.discard(4, "3d")
    log.draw(1, "9c")
    log.declare(1, "ready").discard(1, "9c")
    board = _board(log)
    assert board["riichi_discard"] == {"1": 2} and board["riichi_river"] == {"1": None}
    log.draw(2, "ew")
    board = _board(log)
    assert board["riichi_discard"] == {"1": 2} and board["riichi_river"] == {"1": 1}
    assert board["double_riichi"] == []
    # no call: the fourth discard is the river's fourth tile
    log = _log().discard(1, "nw")
    for seat, tile in ((2, "1c"), (3, "2c"), (4, "3c"), (1, "9c"), (2, "4c"), (3, "5c"),
                       (4, "6c"), (1, "7c"), (2, "8c"), (3, "ew"), (4, "sw"), (1, "ww")):
        log.draw(seat, tile)
        if seat == 1 and tile == "ww":
            log.declare(1, "ready")
        log.discard(seat, tile)
    log.draw(2, "ew")
    assert _board(log)["riichi_river"] == {"1": 3}


def test_no_tenpai_on_the_board_after_a_win() -> None:
    log = _log().declare(1, "ready").discard(1, "nw")
    log.draw(2, "1c")
    log.discard(2, "1d")
    log.declare(1, "mahjong").move("1d", "discard", "rack:1")
    board = _board(log)
    assert "tenpai" not in board and board["ura_due"] is True
    board = _board(Log_copy(log).move("4c", "wall", "dora"))  # the ura indicator laid
    assert board["ura_due"] is False and board["ura_dora_indicators"] == ["4c"]


def test_the_board_shows_tenpai_after_a_nagashi_mangan() -> None:
    """North discards only terminals and honours (option nagashi_mangan): the hand counts as
    an exhaustive draw otherwise, so the board says who was tenpai (RULES.md 11). East waits on
    1d/4d, West on the wd (seven pairs), North on any orphan (thirteen orphans); South on
    nothing."""
    log = _log({"nagashi_mangan": True}, north="1d9d 1b9b 1c9c ewswwwnw wdgdrd")
    log.discard(1, "nw")
    orphans = ["ew", "sw", "ww", "nw", "gd", "rd", "wd", "1d", "9d", "1b", "9b", "1c", "9c"]
    seat = 2
    for _ in range(69):
        if seat == 4:
            tile = next(t for t in orphans if log.out[t] < 4 and t != "nw")
        else:
            tile = log.spare(avoid=orphans)
        log.draw(seat, tile)
        log.discard(seat, tile)
        seat = seat % 4 + 1
    log.move(tile, "discard", "river")
    assert replay_summary(replay(log.events)[0])["hands"][0]["result"] == "nagashi_mangan"
    board = _board(log)
    assert board["tenpai"] == {"1": "tenpai", "2": "noten", "3": "tenpai", "4": "tenpai"}
