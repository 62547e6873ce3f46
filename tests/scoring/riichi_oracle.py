"""PyPI ``mahjong`` (the riichi calculator validated on Tenhou's hands) run on a HandInput, with
its OptionalRules set to the riichi options being tested."""

from __future__ import annotations

from typing import Any

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.hand_calculating.hand_response import HandResponse
from mahjong.hand_calculating.scores import ScoresCalculator
from mahjong.meld import Meld as MjMeld

from controller.scoring import HandInput

_SUIT_BASE = {"c": 0, "d": 9, "b": 18}  # man, pin, sou in mahjong's 34 order
_HONOURS = {"ew": 27, "sw": 28, "ww": 29, "nw": 30, "wd": 31, "gd": 32, "rd": 33}
_WIND = {"east": 27, "south": 28, "west": 29, "north": 30}


def code(tile: str) -> int:
    """A tile code as mahjong's 34-kind index."""
    if tile in _HONOURS:
        return _HONOURS[tile]
    return _SUIT_BASE[tile[1]] + int(tile[0]) - 1


class _Ids:
    """Hands out distinct 136-format ids, four per kind."""

    def __init__(self) -> None:
        self.used = [0] * 34

    def take(self, tile: str) -> int:
        k = code(tile)
        self.used[k] += 1
        assert self.used[k] <= 4, tile
        return 4 * k + self.used[k] - 1


def config(inp: HandInput, renhou: bool | None = None) -> HandConfig:
    opts: dict[str, Any] = dict(inp.options or {})
    flags = set(inp.flags)
    src = inp.win_source
    tsumo = src in ("wall", "replacement", "dealt")
    dealer = inp.seat_wind == "east"
    first_turn = "first_turn" in flags or src == "dealt"
    rules = OptionalRules(
        has_open_tanyao=True, has_aka_dora=False,
        has_double_yakuman=bool(opts.get("double_yakuman", False)),
        kazoe_limit=(HandConstants.KAZOE_LIMITED if opts.get("kazoe") == "yakuman"
                     else HandConstants.KAZOE_SANBAIMAN),
        kiriage=bool(opts.get("kiriage", False)), fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
        renhou_as_yakuman=opts.get("renhou", "mangan") == "yakuman",
    )
    if renhou is None:
        renhou = inp.first_discard and opts.get("renhou", "mangan") != "off"
    return HandConfig(
        is_tsumo=tsumo, is_riichi="riichi" in flags, is_daburu_riichi="double_riichi" in flags,
        is_ippatsu="ippatsu" in flags, is_rinshan=src == "replacement",
        is_chankan=src == "robbed_kong", is_haitei=inp.last_tile and src == "wall",
        is_houtei=inp.last_tile and src == "discard",
        is_tenhou=first_turn and dealer, is_chiihou=first_turn and not dealer,
        is_renhou=bool(renhou), player_wind=_WIND[inp.seat_wind],
        round_wind=_WIND[inp.prevailing_wind], options=rules,
    )


def estimate(inp: HandInput, renhou: bool | None = None) -> HandResponse:
    ids = _Ids()
    melds = []
    tiles: list[int] = []
    for m in inp.melds:
        got = [ids.take(t) for t in m.tiles]
        tiles += got
        kind = (MjMeld.KAN if len(m.tiles) == 4
                else MjMeld.PON if m.tiles[0] == m.tiles[1] else MjMeld.CHI)
        melds.append(MjMeld(meld_type=kind, tiles=got, opened=not m.concealed))
    win = None
    for t in inp.hand:
        i = ids.take(t)
        tiles.append(i)
        if t == inp.winning_tile:
            win = i
    assert win is not None, "the winning tile is one of the hand's"
    dora = [ids.take(t) for t in inp.dora_indicators]
    ura = [ids.take(t) for t in inp.ura_dora_indicators]
    return HandCalculator.estimate_hand_value(
        tiles, win, melds=melds, dora_indicators=dora, config=config(inp, renhou),
        ura_dora_indicators=ura)


def scores(han: int, fu: int, inp: HandInput, yakuman: bool) -> dict[str, Any]:
    """mahjong's own payment table for a han and fu."""
    return dict(ScoresCalculator.calculate_scores(han, fu, config(inp), yakuman))


def paid(cost: dict[str, Any], tsumo: bool) -> int:
    """What the hand is paid before honba and deposits (FORMATS.md's ``score``)."""
    return cost["main"] + 2 * cost["additional"] if tsumo else cost["main"]


_LEVELS = {"kazoe yakuman": "yakuman", "kazoe sanbaiman": "sanbaiman",
           "kiriage mangan": "mangan", "2x yakuman": "double yakuman",
           "3x yakuman": "triple yakuman", "4x yakuman": "quadruple yakuman",
           "5x yakuman": "quintuple yakuman", "6x yakuman": "sextuple yakuman"}


def limit(cost: dict[str, Any], han: int, fu: int) -> str | None:
    """mahjong's level as FORMATS.md names it. Its label is empty for a mangan by fu when the
    option kiriage is on (the payment is capped all the same): that is named from han and fu."""
    level = cost["yaku_level"]
    if not level and han < 5 and fu * 2 ** (han + 2) > 2000:
        return "mangan"
    return _LEVELS.get(level, level) or None
