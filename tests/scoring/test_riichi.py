"""riichi (RULES.md section 11): each yaku and yakuman on a worked hand, the fu, dora, limits
and options; the expected han, fu and payments are worked out in the comments from the rule
book's tables (base = fu x 2^(han + 2); a ron 4 x base, 6 x to a dealer; rounded up to 100)."""

from __future__ import annotations

from typing import Any

import pytest

from controller.scoring import HandInput, ScoringError, score_hand
from controller.tiles import parse_hand


def riichi(text: str, won: str = "discard", seat: str = "south", prevailing: str = "east",
           wt: str | None = None, **kw: Any) -> HandInput:
    """A winner's hand in the people's notation; the winning tile is the last one written."""
    h = parse_hand(text)
    return HandInput("riichi", seat_wind=seat, prevailing_wind=prevailing, melds=h.melds,
                     hand=h.concealed, mahjong=True, winning_tile=wt or h.concealed[-1],
                     win_source=won, **kw)


def han_fu_score(inp: HandInput) -> tuple[int, int, int, str | None]:
    r = score_hand(inp)
    return r.doubles, r.points, r.score, r.limit_hand


def names(inp: HandInput) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in score_hand(inp).items:
        out[item.name] = out.get(item.name, 0) + item.points
    return out


# (id, hand, keyword arguments, the yaku with their han, (han, fu, score, limit))
CASES: list[tuple[str, str, dict[str, Any], dict[str, int], tuple[int, int, int, str | None]]] = [
    # riichi 1 + menzen tsumo 1 + pinfu 1; pinfu tsumo 20 fu; base 20 x 2^5 = 640:
    # the dealer pays 1280 -> 1300, the others 640 -> 700 each: 2700
    ("riichi pinfu tsumo", "2c3c4c 7c8c9c 1d2d3d 6d6d 4d5d 6d",
     {"won": "wall", "flags": ["riichi"]},
     {"riichi": 1, "menzen tsumo": 1, "pinfu": 1}, (3, 20, 2700, None)),
    # pinfu ron: 20 + 10 closed ron = 30 fu, 1 han: base 240, ron 960 -> 1000
    ("pinfu ron", "2c3c4c 7c8c9c 1d2d3d 6d6d 4d5d 6d", {}, {"pinfu": 1}, (1, 30, 1000, None)),
    # open pinfu shape: 20 fu -> 30; tanyao open 1 han: 1000
    ("open tanyao 30 fu", "[2c3c4c] 5c6c7c 3d4d5d 5b5b 6b7b8b", {"wt": "8b"}, {"tanyao": 1},
     (1, 30, 1000, None)),
    # tanyao with a concealed pung of simples: 20 + 10 + 4 = 34 -> 40 fu; base 320 -> 1300
    ("tanyao pung", "2c2c2c 3d4d5d 4c5c6c 5d5d 6b7b8b", {"wt": "8b"}, {"tanyao": 1},
     (1, 40, 1300, None)),
    # iipeikou 1 + pinfu 1, 30 fu: base 480, ron 1920 -> 2000
    ("iipeikou", "2c3c4c 2c3c 5d6d7d 1b2b3b 9d9d 4c", {}, {"iipeikou": 1, "pinfu": 1},
     (2, 30, 2000, None)),
    # yakuhai red dragon (open pung 4) + edge wait 2: 26 -> 30 fu, 1 han: 1000
    ("yakuhai", "[rdrdrd] 2c3c4c 5d6d7d 9c9c 1b2b3b", {"wt": "3b"}, {"yakuhai": 1},
     (1, 30, 1000, None)),
    # east seat in the east round: the east pung is yakuhai twice; dealer ron 2 han:
    # 20 + open honour pung 4 + edge 2 = 26 -> 30; base 480, x6 = 2880 -> 2900
    ("double wind pung", "[ewewew] 2c3c4c 5d6d7d 9c9c 1b2b3b",
     {"wt": "3b", "seat": "east"}, {"yakuhai": 2}, (2, 30, 2900, None)),
    # a double-wind pair is 4 fu: 20 + 10 + 4 + 4 + 4 = 42 -> 50; riichi 1 han: base 400 -> 1600
    ("double wind pair 4 fu", "2c2c2c 5d5d5d 1b2b3b swsw 6c7c8c",
     {"wt": "8c", "prevailing": "south", "flags": ["riichi"]}, {"riichi": 1},
     (1, 50, 1600, None)),
    ("double wind pair 2 fu", "2c2c2c 5d5d5d 1b2b3b swsw 6c7c8c",
     {"wt": "8c", "prevailing": "south", "flags": ["riichi"],
      "options": {"double_wind_pair_fu": 2}}, {"riichi": 1}, (1, 40, 1300, None)),
    # the win-source yaku, 1 han each, on a pinfu hand: ron 30 fu 2 han: base 480 -> 2000;
    # tsumo 20 fu 3 han (menzen tsumo too): base 640: 1300 + 700 + 700
    ("houtei", "2c3c4c 7c8c9c 1d2d3d 6d6d 4d5d 6d", {"last_tile": True},
     {"pinfu": 1, "houtei": 1}, (2, 30, 2000, None)),
    ("haitei", "2c3c4c 7c8c9c 1d2d3d 6d6d 4d5d 6d", {"last_tile": True, "won": "wall"},
     {"menzen tsumo": 1, "pinfu": 1, "haitei": 1}, (3, 20, 2700, None)),
    ("chankan", "2c3c4c 7c8c9c 1d2d3d 6d6d 4d5d 6d", {"won": "robbed_kong"},
     {"pinfu": 1, "chankan": 1}, (2, 30, 2000, None)),
    # rinshan kaihou with an open kong, no other yaku: 20 + 2 tsumo + open kong of simples 8
    # + edge 2 = 32 -> 40; 1 han: base 320: 700 + 400 + 400 = 1500
    ("rinshan kaihou", "[5d5d5d5d] 2c3c4c 7c8c9c 6d6d 1b2b3b", {"wt": "3b", "won": "replacement"},
     {"rinshan kaihou": 1}, (1, 40, 1500, None)),
    # double riichi 2 + ippatsu 1 + pinfu 1 = 4 han 30 fu: base 1920, ron 7680 -> 7700
    ("double riichi ippatsu", "2c3c4c 7c8c9c 1d2d3d 6d6d 4d5d 6d",
     {"flags": ["double_riichi", "ippatsu"]},
     {"double riichi": 2, "ippatsu": 1, "pinfu": 1}, (4, 30, 7700, None)),
    # chiitoitsu 2 han 25 fu: base 400, ron 1600
    ("chiitoitsu", "1c1c 3d3d 5b5b 7c7c ewew rdrd 9b9b", {}, {"chiitoitsu": 2},
     (2, 25, 1600, None)),
    # sanshoku doujun closed 2 + pinfu 1, 30 fu: base 960, ron 3840 -> 3900
    ("sanshoku closed", "1c2c3c 1d2d3d 1b2b3b 9d9d 5c6c7c", {"wt": "7c"},
     {"sanshoku doujun": 2, "pinfu": 1}, (3, 30, 3900, None)),
    ("sanshoku open", "[1c2c3c] 1d2d3d 1b2b3b 9d9d 5c6c7c", {"wt": "7c"},
     {"sanshoku doujun": 1}, (1, 30, 1000, None)),
    # ittsu closed 2 + pinfu 1: 3900
    ("ittsu", "1c2c3c 4c5c6c 7c8c9c 5b5b 2d3d4d", {"wt": "4d"}, {"ittsu": 2, "pinfu": 1},
     (3, 30, 3900, None)),
    # chanta 2: 20 + 10 + concealed 9b pung 8 + dragon pair 2 + edge 2 = 42 -> 50;
    # base 800, ron 3200
    ("chanta", "1c2c3c 7d8d9d 9b9b9b wdwd 1d2d3d", {"wt": "3d"}, {"chanta": 2},
     (2, 50, 3200, None)),
    # toitoi 2: the 7b pung completed by the ron is open: 20 + 2 + 2 + 2 + concealed 9c 8 +
    # prevailing-wind pair 2 = 36 -> 40; base 640, ron 2560 -> 2600
    ("toitoi", "[2c2c2c] [5d5d5d] 9c9c9c ewew 7b7b 7b", {}, {"toitoi": 2}, (2, 40, 2600, None)),
    # sanankou 2 + menzen tsumo 1: 20 + 2 + 4 + 4 + 4 = 34 -> 40; base 1280: 2600 + 1300 x 2
    ("sanankou tsumo", "2c2c2c 5d5d5d 7b7b7b 9d9d 3c4c5c", {"won": "wall"},
     {"menzen tsumo": 1, "sanankou": 2}, (3, 40, 5200, None)),
    # sanshoku doukou 2 (one of the pungs claimed): 20 + 2 + 4 + 4 = 30; base 480 -> 2000
    ("sanshoku doukou", "[3c3c3c] 3d3d3d 3b3b3b 9d9d 6c7c8c", {"wt": "8c"},
     {"sanshoku doukou": 2}, (2, 30, 2000, None)),
    # sankantsu 2: 20 + 2 + 8 + 16 + 8 + single wait 2 = 56 -> 60; base 960: 2000 + 1000 x 2
    ("sankantsu", "[2c2c2c2c] {5d5d5d5d} [7b7b7b7b] 3c4c5c 9d9d", {"won": "wall"},
     {"sankantsu": 2}, (2, 60, 4000, None)),
    # honroutou 2 + toitoi 2 + sanankou 2 (won on the pair) = 6 han: haneman, ron 12000
    ("honroutou", "[1c1c1c] 9d9d9d 1b1b1b nwnwnw 9b 9b", {},
     {"honroutou": 2, "toitoi": 2, "sanankou": 2}, (6, 50, 12000, "haneman")),
    # shousangen 2 + two dragon yakuhai: 4 han; 20 + 10 + 8 + 8 + 2 = 48 -> 50: mangan 8000
    ("shousangen", "rdrdrd gdgdgd wdwd 2c3c4c 5d6d7d", {"wt": "7d"},
     {"shousangen": 2, "yakuhai": 2}, (4, 50, 8000, "mangan")),
    # ryanpeikou 3 + pinfu 1 + tanyao 1 = 5 (read as chiitoitsu it is only 3): mangan
    ("ryanpeikou", "2c3c4c 2c3c4c 6d7d8d 6d7d 5b5b 8d", {},
     {"ryanpeikou": 3, "pinfu": 1, "tanyao": 1}, (5, 30, 8000, "mangan")),
    # junchan 3: 20 + 10 + concealed 9b pung 8 + edge 2 = 40; base 1280, ron 5120 -> 5200
    ("junchan", "1c2c3c 7c8c9c 9b9b9b 1b1b 1d2d3d", {"wt": "3d"}, {"junchan": 3},
     (3, 40, 5200, None)),
    # honitsu open 2 + white dragon 1: 20 + 4 + 8 + single 2 = 34 -> 40: 5200
    ("honitsu", "[1c2c3c] 4c5c6c 7c7c7c wdwdwd 9c 9c", {}, {"honitsu": 2, "yakuhai": 1},
     (3, 40, 5200, None)),
    # chinitsu open 5: mangan; 20 + 4 + single 2 = 26 -> 30
    ("chinitsu", "[1c2c3c] [5c6c7c] [4c5c6c] 2c2c2c 8c 8c", {}, {"chinitsu": 5},
     (5, 30, 8000, "mangan")),
    # dora: indicator 9b -> 1b, nw -> ew, rd -> wd (RULES.md section 11): one 1b, no ew or wd;
    # riichi 1 + pinfu 1 + dora 1 = 3 han 30 fu: base 960, ron 3840 -> 3900
    ("dora wrap", "1b2b3b 7c8c9c 1d2d3d 6d6d 4d5d 6d",
     {"flags": ["riichi"], "dora_indicators": ["9b", "nw", "rd"]},
     {"riichi": 1, "pinfu": 1, "dora": 1}, (3, 30, 3900, None)),
    # ura dora (in riichi): indicator 4d -> one 5d: riichi 1 + pinfu 1 + ura 1 = 3 han: 3900
    ("ura dora", "2c3c4c 7c8c9c 1d2d3d 6d6d 4d5d 6d",
     {"flags": ["riichi"], "dora_indicators": ["1b"], "ura_dora_indicators": ["4d"]},
     {"riichi": 1, "pinfu": 1, "ura dora": 1}, (3, 30, 3900, None)),
    # kan dora: two indicators with one kong; 1b shows 2b (one held), 4d shows 5d (the kong's
    # four): dora 5, 6 han, haneman: 6000 + 3000 x 2
    ("kan dora", "[5d5d5d5d] 2c3c4c 7c8c9c 6d6d 1b2b3b",
     {"wt": "3b", "won": "replacement", "dora_indicators": ["1b", "4d"]},
     {"rinshan kaihou": 1, "dora": 5}, (6, 40, 12000, "haneman")),
    # kiriage off: riichi + pinfu + dora 2c, 7c = 4 han 30 fu, base 1920, ron 7680 -> 7700;
    # kiriage on: a mangan
    ("no kiriage", "2c3c4c 7c8c9c 1d2d3d 6d6d 4d5d 6d", {"flags": ["riichi"],
     "dora_indicators": ["1c", "6c"]}, {"riichi": 1, "pinfu": 1, "dora": 2},
     (4, 30, 7700, None)),
    ("kiriage", "2c3c4c 7c8c9c 1d2d3d 6d6d 4d5d 6d", {"flags": ["riichi"],
     "dora_indicators": ["1c", "6c"], "options": {"kiriage": True}},
     {"riichi": 1, "pinfu": 1, "dora": 2}, (4, 30, 8000, "mangan")),
]


@pytest.mark.parametrize(("text", "kw", "yaku", "want"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_worked_hands(text: str, kw: dict[str, Any], yaku: dict[str, int],
                      want: tuple[int, int, int, str | None]) -> None:
    inp = riichi(text, **kw)
    assert names(inp) == yaku
    assert han_fu_score(inp) == want


# --- yakuman, the limits and the options --------------------------------------------------------

ORPHANS = "1c9c1d9d1b9bewswwwnwrdgd"  # twelve of the thirteen kinds; wd added below
ONE, TWO = (13, 32000, "yakuman"), (26, 64000, "double yakuman")  # a non-dealer's ron
YAKUMAN: list[tuple[str, str, dict[str, Any], dict[str, int], tuple[int, int, str]]] = [
    # a non-dealer's yakuman: base 8000, ron 32000; a tsumo 16000 + 8000 x 2 = 32000
    ("kokushi 13-sided", f"{ORPHANS} wd wd", {}, {"kokushi musou": 13}, ONE),
    ("kokushi 13-sided double", f"{ORPHANS} wd wd", {"options": {"double_yakuman": True}},
     {"kokushi musou": 26}, TWO),
    ("kokushi single wait", f"{ORPHANS} 1c wd", {"options": {"double_yakuman": True}},
     {"kokushi musou": 13}, ONE),
    ("suuankou tsumo", "2c2c2c 5d5d5d 7b7b7b ewew 9c9c 9c", {"won": "wall"},
     {"suuankou": 13}, ONE),
    ("suuankou single wait", "2c2c2c 5d5d5d 7b7b7b 9c9c9c ew ew",
     {"options": {"double_yakuman": True}}, {"suuankou": 26}, TWO),
    ("daisangen", "[rdrdrd] gdgdgd wdwdwd 2c3c4c 9d 9d", {}, {"daisangen": 13}, ONE),
    ("shousuushii", "ewewew swswsw wwwwww nwnw 2c3c 4c", {}, {"shousuushii": 13}, ONE),
    ("daisuushii", "[ewewew] swswsw wwwwww nwnwnw 9d 9d", {}, {"daisuushii": 13}, ONE),
    ("daisuushii double", "[ewewew] swswsw wwwwww nwnwnw 9d 9d",
     {"options": {"double_yakuman": True}}, {"daisuushii": 26}, TWO),
    ("tsuuiisou", "[ewewew] swswsw rdrdrd gdgdgd wd wd", {}, {"tsuuiisou": 13}, ONE),
    ("chinroutou", "[1c1c1c] 9c9c9c 1d1d1d 9b9b9b 1b 1b", {}, {"chinroutou": 13}, ONE),
    ("ryuuiisou", "2b3b4b 2b3b4b 6b6b6b 8b8b8b gd gd", {}, {"ryuuiisou": 13}, ONE),
    ("junsei chuuren", "1c1c1c2c3c4c5c6c7c8c9c9c9c 5c", {"options": {"double_yakuman": True}},
     {"chuuren poutou": 26}, TWO),
    ("chuuren", "1c1c1c2c3c4c5c5c6c7c8c9c9c 9c", {"options": {"double_yakuman": True}},
     {"chuuren poutou": 13}, ONE),
    ("suukantsu", "[2c2c2c2c] [5d5d5d5d] {7b7b7b7b} [9c9c9c9c] ew ew", {}, {"suukantsu": 13}, ONE),
    # the dealer's tsumo yakuman: 16000 from each of three
    ("tenhou", "2c3c4c 7c8c9c 1d2d3d 6d6d 4d5d 6d", {"won": "dealt", "seat": "east"},
     {"tenhou": 13}, (13, 48000, "yakuman")),
    ("chiihou", "2c3c4c 7c8c9c 1d2d3d 6d6d 4d5d 6d", {"won": "wall", "flags": ["first_turn"]},
     {"chiihou": 13}, ONE),
    ("renhou yakuman", "2c2c2c 5d5d5d 7b7b7b 3c4c5c 9d9d",
     {"first_discard": True, "wt": "7b", "options": {"renhou": "yakuman"}}, {"renhou": 13}, ONE),
    # several yakuman: EMA one counts (the first of the table among the highest); the option
    # multiple_yakuman adds them (suuankou on the pair, daisuushii, tsuuiisou); with
    # double_yakuman too: 2 + 2 + 1. A non-dealer's tsumo: 2 x base + base + base
    ("yakuman do not add up", "ewewew swswsw wwwwww nwnwnw rd rd", {"won": "wall"},
     {"suuankou": 13}, ONE),
    ("multiple yakuman", "ewewew swswsw wwwwww nwnwnw rd rd",
     {"won": "wall", "options": {"multiple_yakuman": True}},
     {"daisuushii": 13, "tsuuiisou": 13, "suuankou": 13}, (39, 96000, "triple yakuman")),
    ("multiple double yakuman", "ewewew swswsw wwwwww nwnwnw rd rd",
     {"won": "wall", "options": {"multiple_yakuman": True, "double_yakuman": True}},
     {"daisuushii": 26, "tsuuiisou": 13, "suuankou": 26}, (65, 160000, "quintuple yakuman")),
]


@pytest.mark.parametrize(("text", "kw", "yaku", "want"), [c[1:] for c in YAKUMAN],
                         ids=[c[0] for c in YAKUMAN])
def test_yakuman(text: str, kw: dict[str, Any], yaku: dict[str, int],
                 want: tuple[int, int, str]) -> None:
    inp = riichi(text, **kw)
    assert names(inp) == yaku
    r = score_hand(inp)
    assert (r.doubles, r.score, r.limit_hand) == want


# riichi 1 + pinfu 1 + ittsu 2 + chinitsu 6 = 10 han; dora 3c -> two 4c, 4c -> three 5c: 15
KAZOE = "1c2c3c 4c5c6c 7c8c9c 5c5c 2c3c 4c"


def test_kazoe_sanbaiman_by_default_and_yakuman_by_option() -> None:
    kw: dict[str, Any] = {"flags": ["riichi"], "dora_indicators": ["3c", "4c"]}
    r = score_hand(riichi(KAZOE, **kw))
    assert (r.doubles, r.points, r.score, r.limit_hand) == (15, 30, 24000, "sanbaiman")
    r = score_hand(riichi(KAZOE, options={"kazoe": "yakuman"}, **kw))
    assert (r.doubles, r.score, r.limit_hand) == (15, 32000, "yakuman")


def test_baiman_and_a_dealer_tsumo() -> None:
    # riichi 1 + menzen tsumo 1 + pinfu 1 + ittsu 2 + chinitsu 6 = 11: sanbaiman;
    # the dealer's tsumo: 2 x 6000 = 12000 from each of three
    r = score_hand(riichi(KAZOE, won="wall", seat="east", flags=["riichi"]))
    assert (r.doubles, r.points, r.score, r.limit_hand) == (11, 20, 36000, "sanbaiman")
    # without riichi and tsumo: pinfu + ittsu + chinitsu = 9: baiman, ron 16000
    r = score_hand(riichi(KAZOE))
    assert (r.doubles, r.score, r.limit_hand) == (9, 16000, "baiman")


# a closed ron with no yaku: the pung the ron completes is open, so no sanankou
NO_YAKU = "2c2c2c 5d5d5d 7b7b7b 3c4c5c 9d9d 7b"


def test_a_pung_completed_by_a_ron_is_open_so_no_yaku() -> None:
    text = "2c2c2c 5d5d5d 3c4c5c 9d9d 7b7b 7b"
    with pytest.raises(ScoringError, match="^no yaku"):
        score_hand(riichi(text))
    # the same tiles drawn: sanankou 2 + menzen tsumo 1
    assert names(riichi(text, won="wall")) == {"menzen tsumo": 1, "sanankou": 2}


def test_suuankou_on_a_pung_wait_by_ron_is_toitoi_and_sanankou() -> None:
    # 20 + 10 + three concealed pungs of simples 12 + the open 9c 4 + east pair 2 = 48 -> 50
    inp = riichi("2c2c2c 5d5d5d 7b7b7b ewew 9c9c 9c")
    assert names(inp) == {"toitoi": 2, "sanankou": 2}
    assert han_fu_score(inp) == (4, 50, 8000, "mangan")


def test_renhou_is_a_mangan_or_the_value_without_it() -> None:
    text = "2c2c2c 5d5d5d 3c4c5c 9d9d 7b7b 7b"
    assert han_fu_score(riichi(text, first_discard=True))[2:] == (8000, "mangan")
    assert names(riichi(text, first_discard=True)) == {"renhou": 5}
    with pytest.raises(ScoringError, match="^no yaku"):
        score_hand(riichi(text, first_discard=True, options={"renhou": "off"}))
    ittsu = riichi("1c2c3c 4c5c6c 7c8c9c 5b5b 2d3d4d", first_discard=True)
    assert names(ittsu) == {"pinfu": 1, "ittsu": 2, "renhou": 2}
    # already more than a mangan without renhou: renhou adds nothing
    big = riichi(KAZOE, first_discard=True)
    assert names(big) == {"pinfu": 1, "ittsu": 2, "chinitsu": 6}


def test_a_loser_scores_nothing() -> None:
    inp = HandInput("riichi", seat_wind="west", hand=["1c", "2c", "9d"], mahjong=False)
    r = score_hand(inp)
    assert (r.points, r.doubles, r.score, r.items) == (0, 0, 0, [])


@pytest.mark.parametrize(("kw", "message"), [
    ({"ura_dora_indicators": ["1c"], "dora_indicators": ["2c"]}, "ura_dora_indicators count"),
    ({"flags": ["ippatsu"]}, "ippatsu needs"),
    ({"flags": ["tsumogiri"]}, "unknown flag 'tsumogiri'"),
    ({"flags": ["original_call"]}, "unknown flag 'original_call'"),
    ({"dora_indicators": ["1c"] * 6}, "6 dora indicators"),
    ({"dora_indicators": ["6d", "6d"]}, "5 copies of 6d"),
    ({"won": "replacement"}, "follows a kong"),
    ({"flags": ["first_turn"]}, "first_turn"),
    ({"first_discard": True, "seat": "east"}, "first_discard"),
    ({"last_tile": True, "won": "robbed_kong"}, "last_tile"),
    ({"options": {"limit": 500}}, "does not apply to rule set riichi"),
    ({"options": {"kazoe": "double"}}, "option 'kazoe'"),
    ({"honba": -1}, "honba"),
])
def test_bad_input_is_one_line_naming_it(kw: dict[str, Any], message: str) -> None:
    with pytest.raises(ScoringError, match=message) as exc:
        score_hand(riichi("2c3c4c 7c8c9c 1d2d3d 6d6d 4d5d 6d", **kw))
    assert "\n" not in str(exc.value)


def test_riichi_with_a_claimed_set_and_an_incomplete_hand_are_errors() -> None:
    with pytest.raises(ScoringError, match="riichi needs a closed hand"):
        score_hand(riichi("[2c3c4c] 7c8c9c 1d2d3d 6d6d 4d5d 6d", flags=["riichi"]))
    with pytest.raises(ScoringError, match="not complete"):
        score_hand(riichi("2c3c4c 7c8c9c 1d2d3d 6d6d 4d5d 9d"))
    with pytest.raises(ScoringError, match="bonus"):
        score_hand(HandInput("riichi", hand=["1c"], bonus=["1f"], mahjong=False))


def test_the_answer_is_the_same_whether_the_items_were_read_first_or_not() -> None:
    for text, kw in (("rdrdrd 2c3c4c 5d6d7d 9c9c 1b2b3b",
                      {"flags": ["riichi"], "dora_indicators": ["5d"], "honba": 2}),
                     ("[rdrdrd] 2c3c4c 5d6d7d 9c9c 1b2b3b", {"won": "wall"})):
        fresh = score_hand(riichi(text, **kw)).to_json()
        read = score_hand(riichi(text, **kw))
        assert read.items
        assert read.to_json() == fresh
    loser = score_hand(HandInput("riichi", seat_wind="west", hand=["9d", "1c"], mahjong=False))
    assert loser.to_json()["leftover"] == ["1c", "9d"] and loser.to_json()["score"] == 0
