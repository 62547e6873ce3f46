"""Riichi's rules at the table, hand by hand (RULES.md section 11; FORMATS.md replay). The
expected points come from the rule book: base = fu x 2^(han + 2), a dealer's ron 6 x base,
a non-dealer's 4 x base, each rounded up to 100; 3,000 in all at an exhaustive draw."""

from __future__ import annotations

from typing import Any

from controller.game import public_view, replay, replay_summary, seat_view
from controller.game.state import GameState
from tests.game.logbuilder import Log

#: East (the dealer) 14 tiles: riichi discarding nw waits on 1d/4d (pinfu)
EAST = "1c2c3c 4c5c6c 2b3b4b 2d3d 5b5b nw"
SOUTH = "1d 9d9d 1b1b 7b8b ewew swsw wwww"
WEST = "6d6d 7d7d 8d8d 3c3c gdgd rdrd wd"
NORTH = "5d5d 6b6b 7c7c 8c8c 9b9b nwnw 3d"


def _log(options: dict[str, Any] | None = None, **hands: str) -> Log:
    deal = {1: EAST, 2: SOUTH, 3: WEST, 4: NORTH}
    for key, text in hands.items():
        deal[{"east": 1, "south": 2, "west": 3, "north": 4}[key]] = text
    log = Log("riichi", {"bonus_tiles": False, **(options or {})})
    log.deal(deal)
    log.move("9b", "wall", "dora")  # the first indicator: the dora is 1b
    return log


def _run(log: Log) -> tuple[GameState, list[Any]]:
    return replay(log.events)


def _last(log: Log) -> Any:
    state, outcomes = _run(log)
    return state, outcomes[-1]


def test_riichi_stands_with_its_discard_and_pays_a_deposit() -> None:
    log = _log().declare(1, "ready").discard(1, "nw")
    state, out = _last(log)
    assert out.accepted
    board = public_view(state)["riichi"]
    assert board["riichi"] == [1] and board["double_riichi"] == [1]
    assert board["riichi_sticks"] == 1 and board["points"]["1"] == 29_000
    assert board["riichi_discard"] == {"1": 0}  # its first discard lies sideways


def test_a_riichi_discard_that_leaves_the_hand_waiting_on_nothing_is_refused() -> None:
    state, out = _last(_log().declare(1, "ready").discard(1, "2d"))
    assert not out.accepted and out.violation.rule == "riichi_not_ready"
    assert state.hand.rh.pending == 1  # the declaration stands: discard again


def test_riichi_refused_off_turn_with_an_open_hand_and_late() -> None:
    _, out = _last(_log().declare(2, "ready"))
    # the refusal names the rule, the seat that broke it and its wind (seat 1 deals: 2 is South)
    assert (out.violation.rule, out.violation.seat) == ("riichi_not_ready", 2)
    assert out.violation.message.startswith("South")
    # an open hand: South pungs West's 9d, then declares
    log = _log(south="1d 9d9d 1b1b 7b8b ewew swsw wwww")
    log.discard(1, "nw")
    log.draw(2, "1c")
    log.discard(2, "1c")
    log.draw(3, "9d")
    log.discard(3, "9d").claim(2, "9d", "9d9d")
    _, out = _last(log.declare(2, "ready"))
    assert not out.accepted and out.violation.rule == "riichi_open_hand"
    assert out.violation.seat == 2 and out.violation.message == "South's hand is open: no riichi"


def test_the_hand_is_locked_after_riichi() -> None:
    log = _log().declare(1, "ready").discard(1, "nw")
    for seat, tile in ((2, "1c"), (3, "2c"), (4, "3c")):
        log.draw(seat, tile)
        log.discard(seat, tile)
    log.draw(1, "9c")
    _, out = _last(log.discard(1, "5b"))
    assert not out.accepted and out.violation.rule == "riichi_hand_changed"
    _, out = _last(log.discard(1, "9c"))
    assert out.accepted


def _riichi_then_ron(log: Log) -> Log:
    """East's double riichi, one go-around (ippatsu ends with East's next discard), then
    South's 1d: East's ron."""
    log.declare(1, "ready").discard(1, "nw")
    for seat, tile in ((2, "1c"), (3, "2c"), (4, "3c"), (1, "9c")):
        log.draw(seat, tile)
        log.discard(seat, tile)
    log.draw(2, "4b")
    log.discard(2, "1d")
    return log.declare(1, "mahjong").move("1d", "discard", "rack:1")


def test_a_riichi_ron_is_final_once_the_ura_are_laid() -> None:
    log = _riichi_then_ron(_log())
    state, out = _last(log)
    assert out.accepted and state.hand.phase == "over"
    record = replay_summary(state)["hands"][0]
    # double riichi 2 + pinfu 1 = 3 han, 30 fu: 30 x 2^5 = 960; dealer's ron 6 x 960 -> 5,800
    # the hand's score is the winner's; the others scored nothing (FORMATS.md: a seat's score)
    assert record["scores"] == {"1": 5800, "2": 0, "3": 0, "4": 0}
    assert record["net"] == {"1": 5800, "2": -5800, "3": 0, "4": 0}  # its own stick back
    assert public_view(state)["riichi"]["ura_due"]
    state, out = _last(log.move("4c", "wall", "dora"))  # ura dora 5c: one in the hand
    assert out.accepted
    record = replay_summary(state)["hands"][0]
    # 4 han 30 fu: 30 x 2^6 = 1,920; 6 x 1,920 = 11,520 -> 11,600
    assert record["net"] == {"1": 11_600, "2": -11_600, "3": 0, "4": 0}
    assert record["ura_dora_indicators"] == ["4c"] and record["points"]["1"] == 41_600
    assert state.dealer == 1 and state.rt.honba == 1  # the dealer won: renchan, one honba


def test_ippatsu_on_the_first_go_around() -> None:
    log = _log().declare(1, "ready").discard(1, "nw")
    log.draw(2, "1c")
    log.discard(2, "1d")
    state, out = _last(log.declare(1, "mahjong").move("1d", "discard", "rack:1"))
    names = [i["name"] for i in state.hand.result.details["1"]["score"]["items"]]
    assert "ippatsu" in [n.lower() for n in names]
    # double riichi 2 + ippatsu 1 + pinfu 1: 4 han 30 fu, 11,600
    assert replay_summary(state)["hands"][0]["scores"]["1"] == 11_600


def test_a_ron_on_the_riichi_discard_voids_the_riichi() -> None:
    log = _log(south="1d2d3d 4d5d6d 7d8d9d 1b2b3b nw", north="5d5d 6b6b 7c7c 8c8c 9b9b nwnw 3d")
    state, out = _last(log.declare(1, "ready").discard(1, "nw").declare(2, "mahjong")
                       .move("nw", "discard", "rack:2"))
    assert out.accepted
    record = replay_summary(state)["hands"][0]
    # South has not drawn yet and nobody called: renhou, a mangan (option renhou: mangan,
    # the default), 4 x 2,000 from East; East's riichi is void, no deposit
    assert record["net"] == {"1": -8000, "2": 8000, "3": 0, "4": 0}
    assert record["riichi"] == [] and state.rt.sticks == 0


def test_furiten_refuses_the_ron_and_the_hand_is_dead() -> None:
    log = _log(west="1b2b3b 4b5b6b 7b8b9b 5d6d gdgd")  # waits 4d/7d (ittsu)
    log.discard(1, "nw")
    log.draw(2, "1c")
    log.discard(2, "1c")
    log.draw(3, "7d")
    log.discard(3, "7d")  # its own wait among its discards
    log.draw(4, "4d")
    log.discard(4, "4d")
    state, out = _last(log.declare(3, "mahjong"))
    assert not out.accepted and out.violation.rule == "furiten" and out.violation.seat == 3
    assert state.hand.rh.dead == (3,)
    assert seat_view(state, 3)["riichi"]["dead"]
    log.move("4d", "discard", "river").draw(1, "gd")
    _, out = _last(log.discard(1, "gd").move("gd", "discard", "melds:3"))
    assert not out.accepted and out.violation.rule == "dead_hand"


def test_a_passed_winning_tile_is_furiten_until_the_next_draw() -> None:
    log = _log(west="1b2b3b 4b5b6b 7b8b9b 5d6d gdgd")
    log.discard(1, "nw")
    log.draw(2, "4d")
    log.discard(2, "4d")  # West lets it pass ...
    log.draw(3, "1c")
    log.discard(3, "1c")
    log.draw(4, "7d")
    log.discard(4, "7d")  # ... and has drawn since: no longer furiten
    state, out = _last(log.declare(3, "mahjong"))
    assert out.accepted
    # North pungs the 4d West let pass, then discards a 7d: West has not drawn since
    log = _log(west="1b2b3b 4b5b6b 7b8b9b 5d6d gdgd",
               north="5d5d 6b6b 7c7c 8c 4d4d nwnw 3d 7d")
    log.discard(1, "nw")
    log.draw(2, "4d")
    log.discard(2, "4d").claim(4, "4d", "4d4d")
    state, out = _last(log.discard(4, "7d").declare(3, "mahjong"))
    assert not out.accepted and out.violation.rule == "furiten"
    assert "let a winning tile pass" in out.violation.message


def test_a_win_without_a_yaku_is_refused() -> None:
    log = _log(south="1c2c3c 7d8d9d 1b1b1b 4b5b ewew")  # waits 3b/6b: no yaku
    log.discard(1, "nw")
    log.draw(2, "1d")
    log.discard(2, "1d")
    log.draw(3, "3b")
    state, out = _last(log.discard(3, "3b").declare(2, "mahjong"))
    assert not out.accepted and out.violation.rule == "mahjong_without_yaku"
    assert 2 in state.hand.rh.dead


def test_kuikae() -> None:
    south = "3c4c5c6c 9d9d 1b1b 7b8b ewew sw"
    log = _log(east="1c2c3c 4c5c6c 2b3b4b 2d3d 5b5b 7c", south=south)
    log.discard(1, "7c")
    for seat, tile in ((2, "1d"), (3, "gd"), (4, "9c"), (1, "nw")):
        log.draw(seat, tile)
        log.discard(seat, tile if seat != 1 else "3c")
    log.claim(2, "3c", "4c5c")
    for tile in ("3c", "6c"):  # the called kind, and the other end of its two own tiles
        _, out = _last(Log_copy(log).discard(2, tile))
        assert not out.accepted and out.violation.rule == "kuikae"
    _, out = _last(Log_copy(log).discard(2, "sw"))
    assert out.accepted
    allowed = _log({"kuikae_allowed": True}, east="1c2c3c 4c5c6c 2b3b4b 2d3d 5b5b 7c",
                   south=south)
    allowed.events[1:] = log.events[1:]
    _, out = _last(allowed.discard(2, "6c"))
    assert out.accepted


def Log_copy(log: Log) -> Log:  # noqa: N802 - reads as the builder
    new = Log("riichi", {"bonus_tiles": False})
    new.events = list(log.events)
    new.out = log.out.copy()
    return new


def several_rons(option: str = "all", winners: tuple[int, ...] = (2, 3)) -> Log:
    """South and West both wait on nw (each ittsu, single wait; South with a dora 1b); North
    discards it and ``winners`` declare Mahjong on it; the discard goes to South's rack.
    Also played in the browser (tests/web/test_browser_riichi.py)."""
    south, west = "1d2d3d 4d5d6d 7d8d9d 1b2b3b nw", "1c2c3c 4c5c6c 7c8c9c 2b3b4b nw"
    east = "1b1b 5b5b 6d6d 9b 8b gdgd rdrd wd 3d"
    log = _log({"multiple_ron": option}, east=east, south=south, west=west,
               north="5d5d 6b6b 7c 8c 9b9b nwnw 3d 3b 4b")
    log.discard(1, "wd")
    for seat, tile in ((2, "1c"), (3, "ew"), (4, "sw")):
        log.draw(seat, tile)
        if seat < 4:
            log.discard(seat, tile)
    log.discard(4, "nw")
    for p in winners:
        log.declare(p, "mahjong")
    return log.move("nw", "discard", "rack:2")


def test_several_rons_on_one_discard() -> None:
    for option, winners in (("all", [2, 3]), ("head_bump", [2])):
        state, out = _last(several_rons(option, tuple(winners)))
        assert out.accepted, out.violation
        record = replay_summary(state)["hands"][0]
        assert record["winners"] == winners
        # each: ittsu 2 han, 40 fu (single wait): 40 x 16 = 640, 4 x 640 -> 2,600 from
        # North; South holds a dora (1b, the indicator 9b): 3 han, 40 x 32 x 4 -> 5,200
        expected = {"1": 0, "2": 5200, "3": 2600 if 3 in winners else 0,
                    "4": -5200 - (2600 if 3 in winners else 0)}
        assert record["net"] == expected


def _burn(log: Log, first: int, avoid: str) -> Log:
    """Draw and discard spare tiles round the table until the live wall is used up (69
    draws after the deal), the last discard going to the river: an exhaustive draw."""
    seat = first
    for _ in range(69):
        tile = log.spare(avoid=avoid.split())
        log.draw(seat, tile)
        log.discard(seat, tile)
        seat = seat % 4 + 1
    return log.move(tile, "discard", "river")


def test_the_exhaustive_draw_pays_tenpai_from_the_racks_and_noten_may_be_declared() -> None:
    west = "1b2b3b 4b5b6b 7b8b9b 5d6d gdgd"  # tenpai, not in riichi
    north = "5d 6b 7c 8c 9b9b nwnw 3d 8d 2c 6c 9c"  # noten
    log = _log(west=west, north=north).declare(1, "ready").discard(1, "nw")
    _burn(log, 2, "1d 4d 7d 3d")
    state, out = _last(log)
    assert out.accepted and state.hand.result.result == "washout"
    board = public_view(state)["riichi"]
    assert board["tenpai"] == {"1": "tenpai", "2": "noten", "3": "tenpai", "4": "noten"}
    assert "hand" not in str(state.hand.result.details)  # no tile of any rack is shown
    record = replay_summary(state)["hands"][0]
    # two tenpai: 1,500 each from the two others; East's riichi stick stays on the table
    assert record["net"] == {"1": 500, "2": -1500, "3": 1500, "4": -1500}
    _, out = _last(Log_copy(log).declare(1, "noten"))
    assert not out.accepted  # a seat in riichi cannot declare noten
    state, out = _last(log.declare(3, "noten"))
    assert out.accepted
    record = replay_summary(state)["hands"][0]
    assert record["net"] == {"1": 2000, "2": -1000, "3": -1000, "4": -1000}  # one tenpai
    assert state.dealer == 1 and state.rt.honba == 1 and state.rt.sticks == 1


def test_chombo_voids_the_hand_and_it_is_replayed() -> None:
    log = _log().declare(1, "ready").discard(1, "nw")
    state, out = _last(log.raw({"penalty": {"kind": "chombo", "seat": 2}}))
    assert out.accepted
    record = replay_summary(state)["hands"][0]
    assert record["result"] == "chombo" and record["net"] == {"1": 0, "2": 0, "3": 0, "4": 0}
    assert record["points"]["1"] == 30_000  # the riichi deposit of the hand returned
    assert state.dealer == 1 and state.rt.honba == 0 and state.rt.chombo == (0, 1, 0, 0)
    # it voided the hand: a penalty's take-back cannot bring the hand back, an undo does
    state, out = _last(log.raw({"penalty": {"cancel": 1}}))
    assert not out.accepted and "undo" in out.violation.message
    assert state.rt.chombo == (0, 1, 0, 0)
    state, out = _last(log.undo(1))
    assert out.accepted and state.rt.chombo == (0, 0, 0, 0) and not state.penalties


def _dragons_to_south(east: str, south: str, pung_1c: bool = False) -> GameState:
    """South pungs East's wd, West's gd and North's rd (the third dragon set, North liable),
    with ``pung_1c`` East's 1c too before the rd, and wins on East's 4c."""
    log = _log(east=east, south=south, west="gd 1d2d3d 4d5d6d 7d8d9d 2b3b4b",
               north="rd 9c9c 8c 7b7b 6b 3b 2b 1b 1d nwnw")
    log.discard(1, "wd").claim(2, "wd", "wdwd").discard(2, "9d")
    log.draw(3, "ew")
    log.discard(3, "gd").claim(2, "gd", "gdgd").discard(2, "7d")
    if pung_1c:
        for seat, tile in ((3, "sw"), (4, "ww")):
            log.draw(seat, tile)
            log.discard(seat, tile)
        log.draw(1, "ew")
        log.discard(1, "1c").claim(2, "1c", "1c1c").discard(2, "8b")
    log.draw(3, "sw")
    log.discard(3, "sw")
    log.draw(4, "ww")
    log.discard(4, "rd").claim(2, "rd", "rdrd").discard(2, "5b")
    for seat, tile in ((3, "ew"), (4, "sw"), (1, "ww")):
        log.draw(seat, tile)
        log.discard(seat, tile if seat != 1 else "4c")
    state, out = _last(log.declare(2, "mahjong").move("4c", "discard", "rack:2"))
    assert out.accepted, out.violation
    return state


def test_pao_for_the_third_dragon_set() -> None:
    """South pungs the three dragons, the third (rd) from North's discard, and wins on East's
    4c: daisangen, North liable: half of the 32,000 each from North and the discarder."""
    state = _dragons_to_south("4c5c6c7c8c 1b1b 5b5b 6d6d 9b 8b wd",
                              "wdwd gdgd rdrd 1c1c 2c3c 7d 9d 5b")
    record = replay_summary(state)["hands"][0]
    assert record["net"] == {"1": -16_000, "2": 32_000, "3": 0, "4": -16_000}
    assert state.hand.result.details["2"]["pao"] == "north"


def test_pao_for_the_third_dragon_set_beside_another_pung() -> None:
    """As above, but South also pungs East's 1c before the third dragon and waits on 4c alone:
    the set that makes North liable is still its third dragon set (RULES.md 11: pao for the
    third dragon set), whatever other sets the hand has."""
    state = _dragons_to_south("4c5c6c7c8c 1b1b 5b5b 6d6d 9b 1c wd",
                              "wdwd gdgd rdrd 1c1c 4c 7d 9d 5b 8b", pung_1c=True)
    melds = state.hand.result.details["2"]["melds"]
    assert [m["kind"] for m in melds] == ["pung"] * 4
    record = replay_summary(state)["hands"][0]
    assert record["net"] == {"1": -16_000, "2": 32_000, "3": 0, "4": -16_000}
    assert state.hand.result.details["2"]["pao"] == "north"


def _riichi_go_around(east: str, drawn: str) -> Log:
    """East declares riichi discarding nw; one go-around of plain tiles; East draws ``drawn``."""
    log = _log(east=east).declare(1, "ready").discard(1, "nw")
    for seat, tile in ((2, "ew"), (3, "sw"), (4, "ww")):
        log.draw(seat, tile)
        log.discard(seat, tile)
    log.draw(1, drawn)
    return log


def test_in_riichi_a_concealed_kong_only_when_the_waits_stay() -> None:
    log = _riichi_go_around("1c1c1c 4c5c6c 2b3b4b 2d3d 5b5b nw", "1c")  # waits 1d/4d
    for _ in range(4):
        log.move("1c", "rack:1", "melds:1")
    state, out = _last(log)
    assert out.accepted and state.hand.seat(1).melds[-1].kind == "kong"
    assert state.hand.rh.ippatsu == ()  # a kong ends ippatsu
    state, out = _last(log.move("2c", "wall", "dora"))  # the kong's indicator
    assert out.accepted and len(public_view(state)["riichi"]["dora_indicators"]) == 2
    # 1c1c1c 2c3c ... waits 1c, 4c and 5b: a kong of 1c would leave only 4c
    log = _riichi_go_around("1c1c1c 2c3c 2b3b4b 6d7d8d 5b5b nw", "1c")
    _, out = _last(log.move("1c", "rack:1", "melds:1"))
    assert not out.accepted and out.violation.rule == "riichi_hand_changed"


def test_the_last_discard_may_be_claimed_only_to_win() -> None:
    log = _log(south="1c2c3c 9d9d 1b1b 7b8b ewew swsw", west="1b2b3b 4b5b6b 7b8b9b 5d6d gdgd")
    log.discard(1, "nw")
    seat = 2
    for _ in range(68):
        tile = log.spare(avoid=["gd"])
        log.draw(seat, tile)
        log.discard(seat, tile)
        seat = seat % 4 + 1
    log.draw(seat, "gd")  # the last tile of the live wall
    state, out = _last(log.discard(seat, "gd"))
    assert out.accepted and state.hand.live_wall == 0 and seat != 3
    _, out = _last(Log_copy(log).move("gd", "discard", "melds:3"))  # West's pung of gd
    assert not out.accepted and out.violation.rule == "last_tile_claim"


def test_nagashi_mangan_by_option() -> None:
    """North discards only terminals and honours, none called: a mangan tsumo without honba,
    no tenpai payments (option nagashi_mangan, RULES.md 11)."""
    for option in (False, True):
        log = _log({"nagashi_mangan": option}, north="1d9d 1b9b 1c9c ewswwwnw wdgdrd")
        log.discard(1, "nw")
        seat = 2
        honours = iter(["ew", "sw", "ww", "gd", "rd", "wd", "1d", "9d", "1b", "9b", "1c",
                        "9c"] * 3)
        for _ in range(69):
            if seat == 4:
                tile = next(honours)
                while log.out[tile] >= 4:
                    tile = next(honours)
            else:
                tile = log.spare(avoid=["ew", "sw", "ww", "nw", "gd", "rd", "wd", "1d", "9d",
                                        "1b", "9b", "1c", "9c"])
            log.draw(seat, tile)
            log.discard(seat, tile)
            seat = seat % 4 + 1
        state, out = _last(log.move(tile, "discard", "river"))
        assert out.accepted
        record = replay_summary(state)["hands"][0]
        if option:  # a non-dealer's mangan tsumo: 4,000 from the dealer, 2,000 from each other
            assert record["result"] == "nagashi_mangan"
            assert record["net"]["4"] == 8000 and record["net"]["2"] == -2000
        else:
            assert record["result"] == "washout"
