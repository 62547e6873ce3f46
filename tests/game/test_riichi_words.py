"""Every riichi refusal as the table says it: its rule, the seat that broke it and the whole
sentence (FORMATS.md: a violation's message is what the table shows), and the riichi
announcements, word for word (issue 29: game-play-riichi's survivors). The seats are named by
their wind (RULES.md section 2: seat 1 deals, so seat 1 is East, 2 South, 3 West, 4 North); each
refused act is one RULES.md section 11 forbids: riichi off the own turn, with an open hand, a
dead hand, no tenpai discard or fewer than 4 tiles in the live wall; a riichi discard off the
wait; any other discard in riichi; a call in riichi, from a dead hand or on the last discard;
a kong on the last tile or a fifth kong; a win by a dead or furiten hand; an indicator that is
not due."""

from __future__ import annotations

from controller.game import public_view
from tests.game.logbuilder import Log
from tests.game.test_riichi_abortive import four_kongs_by_east_and_south
from tests.game.test_riichi_rules import EAST, NORTH, SOUTH, WEST, Log_copy, _last, _log


def _refusal(log: Log) -> tuple[str, int | None, str]:
    _, out = _last(log)
    assert not out.accepted and out.violation is not None
    return out.violation.rule, out.violation.seat, out.violation.message


def _said(log: Log) -> tuple[str, ...]:
    """What the last event announced, after checking it was taken."""
    _, out = _last(log)
    assert out.accepted, out.violation
    said: tuple[str, ...] = out.announcements
    return said


# --- the declaration ------------------------------------------------------------------------


def test_the_declaration_is_announced_once() -> None:
    log = _log().declare(1, "ready")
    assert _said(log) == ("East declares riichi: the next discard is the riichi discard",)
    assert _said(log.declare(1, "ready")) == ()  # declared already: nothing new
    state, _ = _last(log)
    assert state.hand.rh.pending == 1
    assert _said(log.discard(1, "nw")) == ("East: double riichi",)
    for seat, tile in ((2, "1c"), (3, "2c"), (4, "3c")):
        log.draw(seat, tile)
        log.discard(seat, tile)
    log.draw(1, "9c")
    assert _said(log.declare(1, "ready")) == ()  # in riichi already: nothing changes
    state, _ = _last(log)
    assert state.hand.rh.pending is None and state.hand.rh.riichi == (1,)


def test_riichi_off_the_own_turn_or_before_the_fourteenth_tile() -> None:
    assert _refusal(_log().declare(2, "ready")) == (
        "riichi_not_ready", 2,
        "South declares riichi on the own turn, with 14 tiles, before the discard")
    # the dealer during the deal, its 14th tile not yet dealt: 13 tiles
    log = Log("riichi", {"bonus_tiles": False})
    log.deal({1: EAST, 2: SOUTH, 3: WEST, 4: NORTH})
    log.events.pop()
    assert _refusal(log.declare(1, "ready")) == (
        "riichi_not_ready", 1,
        "East declares riichi on the own turn, with 14 tiles, before the discard")


def test_riichi_with_no_discard_that_waits() -> None:
    log = _log(east="2c5c8c 2d5d8d 2b5b8b 3c6c 3d6d 3b").declare(1, "ready")
    assert _refusal(log) == ("riichi_not_ready", 1,
                             "no discard leaves East's hand waiting: no riichi")


def test_a_dead_hand_declares_no_riichi() -> None:
    """East declares Mahjong with its 14 dealt tiles, which are not complete: refused, the hand
    is dead (RULES.md 11), announced so; its riichi then is refused too."""
    log = _log().declare(1, "mahjong")
    state, out = _last(log)
    assert out.violation.rule == "mahjong_incomplete_hand"
    assert out.announcements == (
        "East's Mahjong is refused (mahjong_incomplete_hand): the hand is dead (no calls, no "
        "riichi, no win; noten at a draw)",)
    assert state.hand.rh.dead == (1,)
    assert _refusal(log.declare(1, "ready")) == ("dead_hand", 1, "East's hand is dead: no riichi")


def test_a_false_mahjong_after_the_declaration_voids_it() -> None:
    """East declares riichi, then a Mahjong that is refused: the dead hand has no riichi, so its
    next discard is a plain one (no stick). South's refused Mahjong instead leaves East's
    declaration standing."""
    log = _log().declare(1, "ready").declare(1, "mahjong")
    state, _ = _last(log)
    assert state.hand.rh.pending is None and state.hand.rh.dead == (1,)
    state, out = _last(log.discard(1, "nw"))
    assert out.accepted and out.announcements == ()
    assert public_view(state)["riichi"]["riichi"] == [] and state.rt.sticks == 0
    log = _log().declare(1, "ready").declare(2, "mahjong")
    state, out = _last(log)
    assert out.announcements == (
        "South's Mahjong is refused (mahjong_incomplete_hand): the hand is dead (no calls, no "
        "riichi, no win; noten at a draw)",)
    assert state.hand.rh.pending == 1 and state.hand.rh.dead == (2,)
    assert _said(log.discard(1, "nw")) == ("East: double riichi",)


def _to_fourth_last(south_draws: str) -> Log:
    """East discards nw, then 64 spare draws and discards round the table; South draws
    ``south_draws``: 70 - 66 = 4 tiles are left in the live wall (RULES.md 11: 70 draws)."""
    log = _log(south="1d 9d9d 1b1b 7b8b ewew swsw wwww")
    log.discard(1, "nw")
    seat = 2
    for _ in range(64):
        tile = log.spare(avoid=["1d", "8b", "7b"])
        log.draw(seat, tile)
        log.discard(seat, tile)
        seat = seat % 4 + 1
    log.draw(2, south_draws)
    return log


def test_riichi_needs_four_tiles_in_the_live_wall() -> None:
    """South with 4 tiles left declares (seven pairs waiting on 8b once 7b goes); West, with 3
    left after its draw, may not."""
    log = _to_fourth_last("1d")
    state, _ = _last(log)
    assert state.hand.live_wall == 4
    assert _said(log.declare(2, "ready")) == (
        "South declares riichi: the next discard is the riichi discard",)
    assert _said(log.discard(2, "7b")) == ("South: riichi",)
    log.draw(3, log.spare(avoid=["8b"]))
    assert _refusal(log.declare(3, "ready")) == (
        "riichi_too_late", 3, "3 tiles left in the live wall: riichi needs at least 4")


# --- discards ---------------------------------------------------------------------------------


def test_the_discards_riichi_and_kuikae_forbid() -> None:
    assert _refusal(_log().declare(1, "ready").discard(1, "2d")) == (
        "riichi_not_ready", 1,
        "this discard leaves East's hand not waiting: discard another tile for riichi")
    log = _log().declare(1, "ready").discard(1, "nw")
    for seat, tile in ((2, "1c"), (3, "2c"), (4, "3c")):
        log.draw(seat, tile)
        log.discard(seat, tile)
    log.draw(1, "9c")
    assert _refusal(log.discard(1, "5b")) == (
        "riichi_hand_changed", 1, "East is in riichi: discard the tile just drawn")
    # South chows East's 3c with 4c5c: not the 3c next, nor the 6c (RULES.md 11)
    log = _log(east="1c2c3c 4c5c6c 2b3b4b 2d3d 5b5b 7c",
               south="3c4c5c6c 9d9d 1b1b 7b8b ewew sw")
    log.discard(1, "7c")
    for seat, tile in ((2, "1d"), (3, "gd"), (4, "9c"), (1, "nw")):
        log.draw(seat, tile)
        log.discard(seat, tile if seat != 1 else "3c")
    log.claim(2, "3c", "4c5c")
    assert _refusal(Log_copy(log).discard(2, "6c")) == (
        "kuikae", 2, "South may not discard the 6c right after the call (kuikae)")


# --- calls --------------------------------------------------------------------------------------


def test_no_call_in_riichi() -> None:
    log = _log(north="5d5d 6b6b 7c7c 8c8c 9b 5b nwnw 3d").declare(1, "ready").discard(1, "nw")
    for seat, tile in ((2, "1c"), (3, "2c")):
        log.draw(seat, tile)
        log.discard(seat, tile)
    log.draw(4, "ew")
    log.discard(4, "5b")
    # by moving the tiles, or by the claim button (a call: no move names the seat)
    for claim in (Log_copy(log).move("5b", "discard", "melds:1"), log.declare(1, "claim")):
        assert _refusal(claim) == (
            "riichi_hand_changed", 1, "East is in riichi: no calls, the hand is locked")


def test_no_call_from_a_dead_hand() -> None:
    """West declares Mahjong on East's first discard, which it cannot win with: dead; it may
    not pung the gd South discards next."""
    log = _log().discard(1, "nw").declare(3, "mahjong")
    state, _ = _last(log)
    assert state.hand.rh.dead == (3,)
    log.river("nw")
    log.draw(2, "gd")
    log.discard(2, "gd")
    for claim in (Log_copy(log).move("gd", "discard", "melds:3"), log.declare(3, "claim")):
        assert _refusal(claim) == ("dead_hand", 3, "West's hand is dead: no calls")


def _burn(log: Log, seat: int, draws: int, avoid: list[str]) -> int:
    for _ in range(draws):
        tile = log.spare(avoid=avoid)
        log.draw(seat, tile)
        log.discard(seat, tile)
        seat = seat % 4 + 1
    return seat


def test_the_last_discard_only_to_win_and_the_one_before_to_call() -> None:
    """East draws the 68th tile (one left in the live wall) and discards a gd: West may pung
    it; North draws the last tile and discards a rd: West may claim it only to win (RULES.md
    11)."""
    log = _log().discard(1, "nw")
    assert _burn(log, 2, 67, ["gd", "rd"]) == 1
    log.draw(1, "gd")
    state, _ = _last(log.discard(1, "gd"))
    assert state.hand.live_wall == 1
    log.move("gd", "discard", "melds:3").move("gd", "rack:3", "melds:3")
    state, out = _last(log.move("gd", "rack:3", "melds:3"))
    assert out.accepted and state.hand.seat(3).melds[-1].kind == "pung"
    log.discard(3, "wd")
    log.draw(4, "rd")  # the last tile
    log.discard(4, "rd")
    for claim in (Log_copy(log).move("rd", "discard", "melds:3"), log.declare(3, "claim")):
        assert _refusal(claim) == (
            "last_tile_claim", 3,
            "the live wall is used up: West may claim the last discard only to win")


# --- kongs --------------------------------------------------------------------------------------


def test_a_kong_on_the_tile_before_the_last_and_none_on_the_last() -> None:
    """East holds three 5b and draws the fourth as the 68th tile (one left): a kong; South
    holds three 1b and draws the fourth as the 69th, the last: no kong (RULES.md 11)."""
    log = _log(east="1c2c3c 4c5c6c 2b3b4b 2d 5b5b5b nw",
               south="1d 9d9d 1b1b1b 7b8b ewew swsw ww").discard(1, "nw")
    assert _burn(log, 2, 67, ["5b", "1b"]) == 1
    log.draw(1, "5b")
    kong = Log_copy(log)
    for _ in range(4):
        kong.move("5b", "rack:1", "melds:1")
    state, out = _last(kong)
    assert out.accepted and state.hand.seat(1).melds[-1].kind == "kong"
    log.discard(1, "5b")
    log.draw(2, "1b")
    state, _ = _last(log)
    assert state.hand.live_wall == 0
    assert _refusal(log.move("1b", "rack:2", "melds:2")) == (
        "last_tile_kong", 2, "no kong on the last tile: South discards")


def test_a_fifth_kong_is_refused() -> None:
    """East and South make two concealed kongs each (as in the abortive draws' test, the
    option off here); West then draws its fourth 6d: no fifth kong (RULES.md 11)."""
    east = "1c1c1c1c 2c2c2c2c 3b4b5b 7d8d nw"
    south = "3c3c3c3c 4c4c4c 1d2d3d 6b7b 9d"
    log = _log(east=east, south=south, west="6d6d6d 7d7d 8d8d 5c6c 9c9c rd ew",
               north="5d5d 6b6b 7c7c 8c8c 9b 1b nwnw ww")
    said = four_kongs_by_east_and_south(log, _said)
    assert [words[0].split(":")[0] for words in said] == [
        f"Dora indicator {n}" for n in (2, 3, 4, 5)]
    log.river("ew")
    log.draw(3, "6d")
    assert _refusal(log.move("6d", "rack:3", "melds:3")) == (
        "fifth_kong", 3, "four kongs are on the table: no fifth")


# --- the dora pad ---------------------------------------------------------------------------------


def test_indicators_are_announced_and_only_those_due_laid() -> None:
    log = Log("riichi", {"bonus_tiles": False})
    log.deal({1: EAST, 2: SOUTH, 3: WEST, 4: NORTH})
    assert _said(log.move("9b", "wall", "dora")) == ("Dora indicator 1: 9b",)
    assert _refusal(Log_copy(log).move("8b", "wall", "dora")) == (
        "tile_out_of_place", None,
        "1 indicator(s) lie on the dora pad and no other is due: put the tile back in the "
        "dead wall")
    # the indicator is a copy out of the wall: North holds two 9b, South draws the fourth,
    # West may not draw a fifth (RULES.md 1: four copies of each kind)
    log.discard(1, "nw")
    log.draw(2, "9b")
    log.discard(2, "9b")
    fifth = Log_copy(log)
    fifth.draw(3, "9b")
    assert _refusal(fifth) == (
        "fifth_copy", 3,
        "all 4 copies of the kind read are already out: this tile was misread; correct it")


# --- wins -----------------------------------------------------------------------------------------

#: West waits on 4d or 7d: ittsu (RULES.md 11: 2 han closed)
WEST_ITTSU = "1b2b3b 4b5b6b 7b8b9b 5d6d gdgd"


def test_a_dead_hand_cannot_win() -> None:
    """West declares Mahjong on East's nw, which does not complete its hand: dead; its later
    Mahjong on a 4d is refused as a dead hand's."""
    log = _log(west=WEST_ITTSU).discard(1, "nw").declare(3, "mahjong").river("nw")
    log.draw(2, "4d")
    log.discard(2, "4d")
    assert _refusal(log.declare(3, "mahjong")) == (
        "dead_hand", 3, "West's hand is dead (a refused Mahjong): it cannot win")


def test_furiten_by_the_own_discards_says_so() -> None:
    log = _log(west=WEST_ITTSU).discard(1, "nw")
    for seat, tile in ((2, "1c"), (3, "7d"), (4, "4d")):
        log.draw(seat, tile)
        log.discard(seat, tile)
    assert _refusal(log.declare(3, "mahjong")) == (
        "furiten", 3,
        "West is furiten (one of its waits is among its own discards): no win on a discard")
