"""Riichi's bookkeeping around calls, kongs and wins at the table (RULES.md section 11; issue 29:
game-play-riichi's survivors), each expectation from the rule book: kuikae after a chi and a
pon (and a call that would leave only forbidden discards refused); a call ends ippatsu and the
caller's furiten of a passed tile; a concealed kong counts as a call for double riichi; in
riichi a concealed kong only of the tile just drawn, with the waits unchanged and the three
held tiles a pung in every reading; tenhou and chiihou; a plain riichi is not a double one;
furiten in riichi for the rest of the hand; tenpai not counting a kind the hand holds all four
of. Points: base = fu x 2^(han + 2), a dealer's ron 6 x base, each payment rounded up to 100;
a yakuman 8,000 base."""

from __future__ import annotations

from typing import Any

from controller.game import public_view, replay_summary, seat_view
from controller.game.riichi import kuikae_tiles
from tests.game.logbuilder import Log
from tests.game.test_riichi_rules import Log_copy, _last, _log, _riichi_go_around


def _refusal(log: Log) -> tuple[str, int | None, str]:
    _, out = _last(log)
    assert not out.accepted and out.violation is not None
    return out.violation.rule, out.violation.seat, out.violation.message


def _taken(log: Log) -> Any:
    state, out = _last(log)
    assert out.accepted, out.violation
    return state


# --- kuikae -------------------------------------------------------------------------------------


def test_kuikae_tiles_from_the_rule_book() -> None:
    """RULES.md 11: the called kind, and after a chi the tile that extends the caller's two own
    tiles on the other side (chi of 4 with 5-6: neither 4 nor 7); none beyond 1 or 9."""
    assert kuikae_tiles("chow", "4c", ("5c", "6c")) == ("4c", "7c")
    assert kuikae_tiles("chow", "4c", ("2c", "3c")) == ("4c", "1c")
    assert kuikae_tiles("chow", "6b", ("7b", "8b")) == ("6b", "9b")
    assert kuikae_tiles("chow", "6b", ("4b", "5b")) == ("6b", "3b")
    assert kuikae_tiles("chow", "7d", ("8d", "9d")) == ("7d",)  # no 10
    assert kuikae_tiles("chow", "3d", ("1d", "2d")) == ("3d",)  # no 0
    assert kuikae_tiles("chow", "5c", ("4c", "6c")) == ("5c",)  # a middle tile: no other end
    assert kuikae_tiles("pung", "5b", ("5b", "5b")) == ("5b",)
    assert kuikae_tiles("pung", "gd", ("gd", "gd")) == ("gd",)


def _pung_of_2d(options: dict[str, Any] | None = None) -> Log:
    """South holds three 2d and pungs East's first discard, a 2d."""
    log = _log(options, south="2d2d2d 9d9d 1b1b 7b8b ewew sw 1d").discard(1, "2d")
    return log.claim(2, "2d", "2d2d")


def test_after_a_pon_not_the_same_kind() -> None:
    log = _pung_of_2d()
    assert _refusal(Log_copy(log).discard(2, "2d")) == (
        "kuikae", 2, "South may not discard the 2d right after the call (kuikae)")
    _taken(Log_copy(log).discard(2, "sw"))
    allowed = _pung_of_2d({"kuikae_allowed": True})
    _taken(allowed.discard(2, "2d"))


def test_a_call_that_leaves_only_forbidden_discards_is_refused() -> None:
    """South pungs East's 1d, 9d and 1b; left with 4c 5c 6c 7c it may not chi East's 4c with
    5c6c: only 4c and 7c would be left, both forbidden (RULES.md 11)."""
    log = _log(east="1d 9d 1b 4c 1c2c3c 2b3b4b 5b5b nw rd",
               south="1d1d 9d9d 1b1b 5c6c 4c7c ew sw ww")
    avoid = ["1d", "9d", "1b", "4c", "7c", "5c", "6c"]
    for tile, spare in (("1d", "ew"), ("9d", "sw"), ("1b", "ww")):
        if tile != "1d":
            for seat in (3, 4, 1):
                drawn = log.spare(avoid=avoid)
                log.draw(seat, drawn)
                if seat != 1:
                    log.discard(seat, drawn)
        log.discard(1, tile).claim(2, tile, tile + tile)
        log.discard(2, spare)
    for seat in (3, 4, 1):
        drawn = log.spare(avoid=avoid)
        log.draw(seat, drawn)
        if seat != 1:
            log.discard(seat, drawn)
    log.discard(1, "4c").move("4c", "discard", "melds:2").move("5c", "rack:2", "melds:2")
    assert _refusal(log.move("6c", "rack:2", "melds:2")) == (
        "kuikae", 2,
        "after this call South could discard only what kuikae forbids: the call is refused")


# --- what a call ends ---------------------------------------------------------------------------


def test_a_call_ends_ippatsu() -> None:
    """East's double riichi; West pungs South's 3c before East's next discard; North's 1d:
    East's ron has no ippatsu (RULES.md 11): double riichi 2 + pinfu 1, 30 fu: 30 x 2^5 = 960,
    a dealer's ron 6 x 960 -> 5,800 (with ippatsu it would be 11,600)."""
    log = _log().declare(1, "ready").discard(1, "nw")
    log.draw(2, "3c")
    log.discard(2, "3c").claim(3, "3c", "3c3c").discard(3, "wd")
    log.draw(4, "1d")
    state = _taken(log.discard(4, "1d").declare(1, "mahjong").move("1d", "discard", "rack:1"))
    record = replay_summary(state)["hands"][0]
    assert record["scores"]["1"] == 5800


def test_a_call_ends_the_furiten_of_a_passed_tile() -> None:
    """West waits on 4d/7d and lets South's 4d pass; North pungs it and discards a rd; West
    pungs the rd (no draw in between: its call ends the furiten, RULES.md 11) and discards 5d,
    now waiting on 6d alone; North's 6d: West's ron is taken (rd pung, ittsu)."""
    log = _log(west="rdrd 1b2b3b 4b5b6b 7b8b9b 5d 6d",
               north="4d4d rd 5d5d 6b6b 7c7c 8c8c 3d 9c").discard(1, "nw")
    log.draw(2, "4d")
    log.discard(2, "4d").claim(4, "4d", "4d4d").discard(4, "rd")
    log.claim(3, "rd", "rdrd").discard(3, "5d")
    log.draw(4, "6d")
    state = _taken(log.discard(4, "6d").declare(3, "mahjong").move("6d", "discard", "rack:3"))
    assert replay_summary(state)["hands"][0]["winners"] == [3]


# --- riichi's discard and the ready flag ---------------------------------------------------------


def test_a_riichi_after_the_first_discard_is_a_plain_one() -> None:
    """East discards nw, then declares with its second discard: riichi, not double; its ron
    on South's 1d with ippatsu: riichi 1 + ippatsu 1 + pinfu 1, 30 fu: 960 x 6 -> 5,800."""
    log = _log().discard(1, "nw")
    for seat, tile in ((2, "1c"), (3, "2c"), (4, "3c")):
        log.draw(seat, tile)
        log.discard(seat, tile)
    log.draw(1, "9c")
    log.declare(1, "ready")
    state, out = _last(log.discard(1, "9c"))
    assert out.announcements == ("East: riichi",)
    board = public_view(state)["riichi"]
    assert board["riichi"] == [1] and board["double_riichi"] == []
    log.draw(2, "4b")
    state = _taken(log.discard(2, "1d").declare(1, "mahjong").move("1d", "discard", "rack:1"))
    assert replay_summary(state)["hands"][0]["scores"]["1"] == 5800


def test_the_riichi_seat_shows_ready_from_its_riichi_discard() -> None:
    log = _log().declare(1, "ready")
    seats = public_view(_taken(log))["hand"]["seats"]
    assert seats["1"]["ready"] is False  # declared, its discard still to come
    seats = public_view(_taken(log.discard(1, "nw")))["hand"]["seats"]
    assert seats["1"]["ready"] is True
    log.draw(2, "1c")
    seats = public_view(_taken(log.discard(2, "1c")))["hand"]["seats"]
    assert [seats[p]["ready"] for p in "1234"] == [True, False, False, False]


def test_two_riichi_seats_furiten_apart() -> None:
    """South (waits 6d/9d) and West (waits wd) both declare riichi with their first discard.
    South lets North's 6d pass: furiten for the rest of the hand, so no ron on East's 9d;
    West, which did not pass anything, wins on East's wd."""
    log = _log(south="1d2d3d 4d5d6d 7d8d 1b2b3b 9c9c",
               west="1c2c3c 4c5c6c 7c8c9c 2b3b4b wd").discard(1, "nw")
    for seat, tile in ((2, "gd"), (3, "rd")):
        log.draw(seat, tile)
        log.declare(seat, "ready")
        log.discard(seat, tile)
    log.draw(4, "6d")
    log.discard(4, "6d")  # South lets it pass
    south = Log_copy(log)
    south.draw(1, "9d")
    assert _refusal(south.discard(1, "9d").declare(2, "mahjong")) == (
        "furiten", 2,
        "South is furiten (it let a winning tile pass in riichi): no win on a discard")
    log.draw(1, "wd")
    state = _taken(log.discard(1, "wd").declare(3, "mahjong").move("wd", "discard", "rack:3"))
    assert replay_summary(state)["hands"][0]["winners"] == [3]


# --- kongs --------------------------------------------------------------------------------------


def test_a_concealed_kong_counts_as_a_call_for_double_riichi() -> None:
    """South's concealed kong of 1b on its first turn, then riichi with its first discard:
    a plain riichi (RULES.md 11: double riichi before any call; a concealed kong counts)."""
    log = _log(south="1b1b1b 1d2d3d 4d5d6d 7d8d9d nw").discard(1, "nw")
    log.draw(2, "1b")
    for _ in range(4):
        log.move("1b", "rack:2", "melds:2")
    log.move("2c", "wall", "dora")
    log.draw(2, "gd")
    log.declare(2, "ready")
    state, out = _last(log.discard(2, "gd"))
    assert out.accepted and out.announcements == ("South: riichi",)
    assert public_view(state)["riichi"]["double_riichi"] == []


def test_in_riichi_a_kong_only_of_the_drawn_tile() -> None:
    # East holds four 1c from before its riichi and draws a 9c: no kong of the 1c
    log = _riichi_go_around("1c1c1c1c 2c3c 4b5b6b 7d8d9d 5b nw", "9c")
    assert _refusal(log.move("1c", "rack:1", "melds:1")) == (
        "riichi_hand_changed", 1,
        "East is in riichi: a concealed kong only of the tile just drawn")
    # East draws its third 5b: three tiles make no kong
    log = _riichi_go_around("1c2c3c 4c5c6c 2b3b4b 2d3d 5b5b nw", "5b")
    assert _refusal(log.move("5b", "rack:1", "melds:1")) == (
        "riichi_hand_changed", 1,
        "East is in riichi: a concealed kong only of the tile just drawn")


def test_in_riichi_a_kong_whose_tiles_are_not_a_pung_in_every_reading() -> None:
    """1c1c1c 2c 4c4c4c + 234b 678d waits on 2c (1c and 4c pungs, 2c pair) and 3c (2c3c4c with
    a 4c pair, or 1c1c pair with 1c2c3c): the fourth 4c leaves the waits 2c and 3c, but the
    4c are not a pung in the 3c reading: no kong (RULES.md 11)."""
    log = _riichi_go_around("1c1c1c 2c 4c4c4c 2b3b4b 6d7d8d nw", "4c")
    assert _refusal(log.move("4c", "rack:1", "melds:1")) == (
        "riichi_hand_changed", 1, "East is in riichi: this kong would change the hand's waits")
    # 1c1c1c 2c3c ... waits 1c, 4c and 5b: a kong of 1c would leave only 4c
    log = _riichi_go_around("1c1c1c 2c3c 2b3b4b 6d7d8d 5b5b nw", "1c")
    assert _refusal(log.move("1c", "rack:1", "melds:1")) == (
        "riichi_hand_changed", 1, "East is in riichi: this kong would change the hand's waits")


def test_in_riichi_a_kong_on_a_replacement_tile() -> None:
    """East (waiting on 5b alone) draws its fourth 1c: a kong; its replacement is the fourth
    6c: a second kong; its replacement, rd, is discarded (the tile just drawn)."""
    log = _riichi_go_around("1c1c1c 6c6c6c 2b3b4b 6d7d8d 5b nw", "1c")
    for tile, indicator, replacement in (("1c", "2c", "6c"), ("6c", "3c", "rd")):
        for _ in range(4):
            log.move(tile, "rack:1", "melds:1")
        log.move(indicator, "wall", "dora")
        log.draw(1, replacement)
        _taken(log)
    state = _taken(log.discard(1, "rd"))
    assert [m.kind for m in state.hand.seat(1).melds] == ["kong", "kong"]


# --- the first go-around --------------------------------------------------------------------------


def test_tenhou_and_chiihou() -> None:
    """A dealer complete on its dealt tiles (tenhou) and a non-dealer on its first draw with no
    call before (chiihou): yakuman, 8,000 base; a dealer's tsumo 2 x 8,000 from each, a
    non-dealer's 2 x 8,000 from the dealer and 8,000 from each other."""
    log = _log(east="1c2c3c 4c5c6c 7c8c9c 2b3b4b 5b5b")
    state = _taken(log.declare(1, "mahjong"))
    net = replay_summary(state)["hands"][0]["net"]
    assert net == {"1": 48_000, "2": -16_000, "3": -16_000, "4": -16_000}
    log = _log(south="1d2d3d 4d5d6d 7d8d9d 1b2b3b 9c").discard(1, "5b")
    log.draw(2, "9c")
    state = _taken(log.declare(2, "mahjong"))
    net = replay_summary(state)["hands"][0]["net"]
    assert net == {"1": -16_000, "2": 32_000, "3": -8_000, "4": -8_000}


# --- tenpai -------------------------------------------------------------------------------------


def test_a_wait_on_a_kind_the_hand_holds_four_of_is_no_tenpai() -> None:
    """West pungs East's 1c holding three: its pung and a single 1c, waiting only on a fifth
    1c: noten at the exhaustive draw (RULES.md 11), North (seven pairs waiting on 3d) tenpai."""
    log = _log(west="1c1c1c 2b3b4b 5d6d7d 8b8b8b wd").discard(1, "1c")
    log.claim(3, "1c", "1c1c").discard(3, "wd")
    seat = 4
    for _ in range(69):
        tile = log.spare(avoid=["1c", "3d"])
        log.draw(seat, tile)
        log.discard(seat, tile)
        seat = seat % 4 + 1
    state = _taken(log.river(tile))
    board = public_view(state)["riichi"]
    assert board["tenpai"] == {"1": "noten", "2": "noten", "3": "noten", "4": "tenpai"}


# --- robbing a kong -------------------------------------------------------------------------------


def _to_added_kong(north_discards: str) -> Log:
    """West waits on 4d/7d (ittsu). East pungs South's 7d; a go-around later (West has drawn
    since South's 7d) North discards ``north_discards``; East draws the fourth 7d and adds it
    to its pung, a kong West may rob."""
    log = _log(east="1c2c3c 4c5c6c 2b3b4b 7d7d 5b5b nw",
               west="1b2b3b 4b5b6b 7b8b9b 5d6d gdgd").discard(1, "nw")
    log.draw(2, "7d")
    log.discard(2, "7d").claim(1, "7d", "7d7d").discard(1, "5b")
    for seat in (2, 3):
        log.draw_discard(seat, log.spare(avoid=["4d", "7d"]))
    log.draw(4, north_discards)
    log.discard(4, north_discards)
    log.draw(1, "7d")
    return log.move("7d", "rack:1", "melds:1")


def test_robbing_a_kong_and_furiten() -> None:
    """A seat that let a winning tile pass (North's 4d) and has not drawn since may not rob
    the kong either (RULES.md 11: furiten on a discard or a robbed kong); one that did not
    pass anything robs it (chankan)."""
    log = _to_added_kong("4d").declare(3, "mahjong").move("7d", "melds:1", "rack:3")
    assert _refusal(log) == ("furiten", 3,
                             "West is furiten (it let a winning tile pass): no win on a discard")
    log = _to_added_kong("ew").declare(3, "mahjong")
    state = _taken(log.move("7d", "melds:1", "rack:3"))
    assert replay_summary(state)["hands"][0]["winners"] == [3]
    assert state.hands[-1].win_source == "robbed_kong"


# --- what the others see after a call -------------------------------------------------------------


def test_after_a_call_the_callers_facts() -> None:
    """West's pung ends its furiten of South's passed 4d: not furiten on its own page; South's
    chi with kuikae allowed leaves nothing forbidden."""
    log = _log(west="rdrd 1b2b3b 4b5b6b 7b8b9b 5d 6d",
               north="4d4d rd 5d5d 6b6b 7c7c 8c8c 3d 9c").discard(1, "nw")
    log.draw(2, "4d")
    log.discard(2, "4d").claim(4, "4d", "4d4d").discard(4, "rd")
    state = _taken(log.claim(3, "rd", "rdrd").discard(3, "5d"))
    facts = seat_view(state, 3)["riichi"]
    assert facts["furiten"] is False and facts["in_riichi"] is False
    log = _log({"kuikae_allowed": True}, east="1c2c3c 4c5c6c 2b3b4b 2d3d 5b5b 7c",
               south="3c4c5c6c 9d9d 1b1b 7b8b ewew sw").discard(1, "7c")
    for seat, tile in ((2, "1d"), (3, "gd"), (4, "9c"), (1, "nw")):
        log.draw(seat, tile)
        log.discard(seat, tile if seat != 1 else "3c")
    state = _taken(log.claim(2, "3c", "4c5c"))
    assert seat_view(state, 2)["riichi"]["kuikae"] == []


# --- nagashi mangan -------------------------------------------------------------------------------


def test_no_nagashi_mangan_for_a_seat_whose_discard_was_called() -> None:
    """North discards only terminals and honours, but West pungs its first one (gd): no
    nagashi mangan (RULES.md 11, option nagashi_mangan: none of them called), a washout."""
    terminals = ["ew", "sw", "ww", "gd", "rd", "wd", "1d", "9d", "1b", "9b", "1c", "9c", "nw"]
    log = _log({"nagashi_mangan": True}, north="1d9d 1b9b 1c9c ewswwwnw wdgd gd")
    log.discard(1, "nw")
    for seat in (2, 3):
        log.draw_discard(seat, log.spare(avoid=terminals))
    log.draw(4, log.spare(avoid=terminals))
    log.discard(4, "gd").claim(3, "gd", "gdgd").discard(3, "wd")
    tile = log.terminals_to_the_end(4, 66, terminals * 3, avoid=terminals)
    state = _taken(log.river(tile))
    record = replay_summary(state)["hands"][0]
    assert record["result"] == "washout"
