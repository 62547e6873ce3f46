"""The last tile of a riichi hand at the table (RULES.md 11): haitei (a tsumo on the last tile
of the live wall) and houtei (a ron on its discard) played through the engine, the yaku checked
with PyPI ``mahjong`` on the same tiles (written here, not taken from the engine), the points
from the rule book (abortive draws: tests/game/test_riichi_abortive.py)."""

from __future__ import annotations

from typing import Any

from mahjong.constants import EAST as MJ_EAST
from mahjong.constants import SOUTH as MJ_SOUTH
from mahjong.constants import WEST as MJ_WEST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.tile import TilesConverter

from controller.game import replay, replay_summary
from tests.game.logbuilder import Log

EAST = "1c2c3c 4c5c6c 2b3b4b 2d3d 5b5b nw"
#: South waits on 9d alone (a single wait), closed: tsumo and haitei are its only yaku
SOUTH = "2c3c4c 5d6d7d 3b4b5b 6b7b8b 9d"
#: West waits on 4d or 7d (two-sided), closed, all simples: pinfu, tanyao (and houtei)
WEST = "2c3c4c 5c6c7c 2b3b4b 5d6d 8b8b"
NORTH = "5d5d 6b6b 7c7c 8c8c 9b9b nwnw 3d"
AVOID = ["9d", "4d", "7d"]


def _to_last_tile(last: str) -> Log:
    """East discards, then 68 spare draws and discards round the table; South draws ``last``,
    the 70th and last tile of the live wall (RULES.md 11: 70 draws, East's 14th the first)."""
    log = Log("riichi", {"bonus_tiles": False})
    log.deal({1: EAST, 2: SOUTH, 3: WEST, 4: NORTH})
    log.move("9b", "wall", "dora")  # the indicator: the dora is 1b, held by nobody here
    log.discard(1, "nw")
    seat = 2
    for _ in range(68):
        tile = log.spare(avoid=AVOID)
        log.draw(seat, tile)
        log.discard(seat, tile)
        seat = seat % 4 + 1
    assert seat == 2
    log.draw(2, last)
    return log


def _mahjong_yaku(man: str, pin: str, sou: str, win: str, **config: Any) -> tuple[set[str], int,
                                                                                  int]:
    """PyPI mahjong's yaku, han and fu for 14 tiles (its man/pin/sou are c/d/b here)."""
    tiles = TilesConverter.string_to_136_array(man=man, pin=pin, sou=sou)
    suit = {"c": "man", "d": "pin", "b": "sou"}[win[1]]
    win_id = TilesConverter.string_to_136_array(**{suit: win[0]})[0]
    dora = TilesConverter.string_to_136_array(sou="9")
    result = HandCalculator.estimate_hand_value(tiles, win_id, dora_indicators=dora,
                                                config=HandConfig(**config))
    assert result.error is None, result.error
    return {y.name for y in result.yaku}, int(result.han), int(result.fu)


def _names(record: dict[str, Any], details: dict[str, Any], pos: int) -> set[str]:
    return {item["name"].lower().replace(" ", "_") for item in details[str(pos)]["score"]["items"]}


def test_haitei_a_tsumo_on_the_last_tile() -> None:
    log = _to_last_tile("9d").declare(2, "mahjong")
    state, outcomes = replay(log.events)
    assert outcomes[-1].accepted, outcomes[-1].violation
    assert state.hands[-1].win_source == "wall"
    record = replay_summary(state)["hands"][0]
    yaku, han, fu = _mahjong_yaku("234", "56799", "345678", "9d", is_tsumo=True, is_haitei=True,
                                  player_wind=MJ_SOUTH, round_wind=MJ_EAST)
    assert yaku == {"Menzen Tsumo", "Haitei Raoyue"} and (han, fu) == (2, 30)
    assert _names(record, state.hand.result.details, 2) == {"menzen_tsumo", "haitei"}
    # 2 han 30 fu: base 30 x 2^4 = 480; a non-dealer's tsumo: the dealer 2 x 480 -> 1,000,
    # the two others 480 -> 500 each (RULES.md 11)
    assert record["net"] == {"1": -1000, "2": 2000, "3": -500, "4": -500}
    assert state.dealer == 2 and state.rt.honba == 0  # East did not win: the deal passes


def test_houtei_a_ron_on_the_last_discard() -> None:
    log = _to_last_tile("4d").discard(2, "4d").declare(3, "mahjong")
    state, outcomes = replay(log.move("4d", "discard", "rack:3").events)
    assert outcomes[-1].accepted, outcomes[-1].violation
    assert state.hands[-1].win_source == "discard"
    record = replay_summary(state)["hands"][0]
    yaku, han, fu = _mahjong_yaku("234567", "456", "23488", "4d", is_houtei=True,
                                  player_wind=MJ_WEST, round_wind=MJ_EAST)
    assert yaku == {"Pinfu", "Tanyao", "Houtei Raoyui"} and (han, fu) == (3, 30)
    assert _names(record, state.hand.result.details, 3) == {"pinfu", "tanyao", "houtei"}
    # 3 han 30 fu: base 30 x 2^5 = 960; a non-dealer's ron 4 x 960 -> 3,900 from South
    assert record["net"] == {"1": 0, "2": -3900, "3": 3900, "4": 0}
